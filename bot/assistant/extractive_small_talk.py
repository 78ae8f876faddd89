"""The built-in answerer's replies to small talk: greeted back, thanked back, never searched.

"hello", "thanks!", "Thank you, that helped", "ok" or "bye" (:func:`bot.pleasantries.small_talk`)
ask nothing: searching the knowledge base for them can only find nothing ("I could not find
anything about that …") or, worse, quote a passage that happens to say "thanks". The answerer
greets back and says what it does, or says "You're welcome.", and cites nothing. A message with
any question content ("hi, how do I install it?") is a question, answered as before.

Only the extractive backend does this: a language model answers small talk itself, in the
asker's language, so the OpenAI-compatible backend is never bypassed. The replies are English,
as the built-in answerer's other fixed sentences are.
"""

from __future__ import annotations

from typing import Final

from bot.pleasantries import SmallTalk, small_talk

__all__ = ["REPLIES", "small_talk_reply"]

REPLIES: Final[dict[SmallTalk, str]] = {
    # short, or ending in a question mark: grounding flags no uncited claim in them
    "greeting": (
        "Hello! I answer questions from the knowledge base and show the sources I used"
        " — what would you like to know?"
    ),
    "thanks": "You're welcome!",
    "acknowledgement": "All right. What else would you like to know?",
    "goodbye": "Goodbye! Ask again any time.",
}
"""The reply to each kind of small talk (Markdown, no citation markers)."""


def small_talk_reply(question: str) -> str | None:
    """The reply to ``question`` when it is only small talk, else None (a question)."""
    kind = small_talk(question)
    return None if kind is None else REPLIES[kind]
