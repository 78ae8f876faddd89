"""Replies the built-in answerer writes in citecast's own words, and the language they are in.

"I could not find anything about that in the knowledge base." and the replies to small talk
(:mod:`bot.assistant.extractive_small_talk`) are English whatever the knowledge base's language,
like the chat's buttons: a deployment whose ``assistant.language`` is ``de`` must not mark them
German, or a screen reader reads English words in a German voice. A model's reply is the
model's own and keeps the setting.
"""

from __future__ import annotations

from typing import Final

from bot.assistant.extractive_small_talk import REPLIES
from bot.models import Answer

NOT_FOUND: Final = "I could not find anything about that in the knowledge base."
OWN_LANGUAGE: Final = "en"
"""The language of citecast's own words (its pages are ``<html lang="en">``)."""

_OWN: Final = frozenset({NOT_FOUND, *REPLIES.values()})


def answer_language(answer: Answer, language: str) -> str:
    """The language ``answer`` is written in: ``language`` (``assistant.language``, or "" when
    unset), except :data:`OWN_LANGUAGE` for one of the built-in answerer's fixed replies."""
    if language and not answer.citations and answer.text.strip() in _OWN:
        return OWN_LANGUAGE
    return language
