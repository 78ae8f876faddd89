"""The notes citecast writes into a model's answer in its own words, and how a renderer knows one.

A model answer the endpoint cut short ends with a note saying so
(:mod:`bot.assistant.openai_cut_notes`). Like citecast's fixed replies
(:mod:`bot.assistant.own_replies`), the note is English whatever ``assistant.language`` says:
the HTML renderers mark its paragraph ``lang="en"``, or a screen reader reads English words in
the answer's (say, German) voice.
"""

from __future__ import annotations

from typing import Final

CUT_NOTES: Final = {
    "length": "*(The answer was cut off here: the model reached its length limit.)*",
    "content_filter": "*(The answer was cut off here by the model's content filter.)*",
}
"""The note that ends an answer the endpoint stopped early, by ``finish_reason``."""

OWN_LANGUAGE: Final = "en"
"""The language of citecast's own words (as :data:`bot.assistant.own_replies.OWN_LANGUAGE`)."""

_NOTE_TEXTS: Final = frozenset(note.strip("*") for note in CUT_NOTES.values())


def is_own_note(text: str) -> bool:
    """Whether ``text``, a paragraph's visible text, is one of citecast's own notes."""
    return text.strip() in _NOTE_TEXTS
