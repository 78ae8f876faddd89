"""Whether a reply is small talk: a greeting, thanks or goodbye answered, not a question.

"hello", "thanks!", "ok" or "bye" (:func:`bot.pleasantries.small_talk`) ask nothing, and the
built-in answerer greets or thanks back without searching; a language model answers them
itself. Either way the reply cites nothing, and the channels treat it as what it is, not as an
answer that failed to find sources: the web chat shows neither "Answered without sources." nor
the helpful / not helpful vote, Slack puts no feedback buttons under it, and Discourse likes a
post that only thanks instead of replying to it (``discourse_thanks``).

Decided from the question (the asker's words), so it does not depend on the backend's wording;
an answer that cites a source is never small talk, whatever the question looked like.
"""

from __future__ import annotations

from bot.models import Answer
from bot.pleasantries import small_talk

__all__ = ["is_small_talk_reply"]


def is_small_talk_reply(question: str, answer: Answer) -> bool:
    """Whether ``answer`` replies to small talk: ``question`` is only small talk and the answer
    cites nothing."""
    return not answer.citations and small_talk(question) is not None
