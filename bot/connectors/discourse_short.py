"""Replies shorter than the forum's ``min_post_length``: lengthened so that they land.

Discourse refuses a reply shorter than its site setting ``min_post_length`` (20 by default; an
admin may set 50 or more) with 422 "Body is too short (minimum is 60 characters)", counting
the raw body without HTML comments, an ``:emoji:``, a run of dots or of commas as one character
(``StrippedLengthValidator``): footnote definitions count, the invisible unique suffix does
not. The renderer adds a short note to an answer below ``discourse.min_post_length``, but "No."
and its note are still too short for a forum that asks for more.

So just before a reply is sent it is lengthened to the minimum known (the setting, or a larger
one a refusal named, kept for the process by :class:`LearnedMinimum`), in two honest steps:

1. the renderer's short-answer note (or a new one, before the footnote definitions) says that
   the forum asks for replies of at least N characters, which makes up some 90 characters;
2. if that is not enough, the reply opens with the question it answers, quoted (mentions
   broken, markdown escaped, cut at a word when long): the question is the asker's own post in
   the same topic, so nothing reaches the topic that was not there.

A reply still shorter than that is sent as it is (the forum may take it after all) and, when
refused, dropped with the forum's reason.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from bot.connectors.outbox_turns import TURN_KEY
from bot.store import Store
from renderers.discourse import SHORT_CITED_NOTE, SHORT_NOTE, forum_length
from renderers.escaping import md_text, no_forum_mentions

log = logging.getLogger(__name__)

_WHY = "This forum takes replies of at least {minimum} characters, so this note makes up the rest."
# the footnote definitions the renderer writes at the end of a post
_DEFINITIONS = re.compile(r"^\[\^\d+\]:", re.MULTILINE)


def lengthened(raw: str, minimum: int, question: str | None = None) -> str | None:
    """``raw`` made at least ``minimum`` characters long as Discourse counts them: unchanged
    when it already is, else with a note and then the quoted ``question`` (see the module's
    docstring); None when even that is too short."""
    if forum_length(raw) >= minimum:
        return raw
    why = _WHY.format(minimum=minimum)
    noted = None
    for note in (SHORT_NOTE, SHORT_CITED_NOTE):
        if note in raw:
            noted = raw.replace(note, f"{note[:-2]} {why})*", 1)
            break
    if noted is None:
        body, definitions = _split(raw)
        noted = f"{body}\n\n*({why})*" + (f"\n\n{definitions}" if definitions else "")
    if forum_length(noted) >= minimum:
        return noted
    if question is None or not question.strip():
        return None
    quote = _quoted(question, minimum - forum_length(noted))
    led = f"{quote}\n\n{noted}"
    return led if forum_length(led) >= minimum else None


def reply_lengthened(store: Store, payload: dict[str, Any], raw: str, minimum: int) -> str:
    """The ``raw`` of an outbox reply made at least ``minimum`` characters long, quoting its
    turn's question when a note is not enough (a first part only: a continued post follows
    the answer's start); unchanged when it cannot be."""
    if forum_length(raw) >= minimum:
        return raw
    turn_id = payload.get(TURN_KEY)
    turn = store.turn(turn_id) if isinstance(turn_id, int) else None
    first = payload.get("part") in (None, 1)
    return lengthened(raw, minimum, turn.question if turn is not None and first else None) or raw


class LearnedMinimum:
    """The forum's ``min_post_length`` as its refusals showed it, when above the setting."""

    def __init__(self) -> None:
        self.value: int | None = None

    def effective(self, configured: int) -> int:
        """The shortest body to send: the configured minimum, or the learned one when higher."""
        return configured if self.value is None else max(configured, self.value)

    def learn(self, minimum: int, configured: int) -> None:
        """Keep ``minimum`` when higher than what is known; log the first time."""
        if minimum <= self.effective(configured):
            return
        first = self.value is None
        self.value = minimum
        if first:
            log.warning(
                "discourse: the forum refused a reply shorter than %d characters, above"
                " discourse.min_post_length (%d): short replies are lengthened to fit; set"
                ' discourse.min_post_length to the forum\'s "min post length" site setting',
                minimum,
                configured,
            )


def _split(raw: str) -> tuple[str, str]:
    """The post's text and its footnote definitions (a line after those would continue the
    last one, so a note goes before them)."""
    found = _DEFINITIONS.search(raw)
    if found is None:
        return raw.rstrip(), ""
    return raw[: found.start()].rstrip(), raw[found.start() :]


def _quoted(question: str, wanted: int) -> str:
    """The question as a markdown quote of about ``wanted`` characters (plus a margin), cut
    at a word."""
    text = md_text(no_forum_mentions(question.strip()))
    room = wanted + 8
    if len(text) > room:
        cut = text.rfind(" ", 0, room + 20)
        text = text[: cut if cut > wanted else room + 20].rstrip("\\") + " …"
    return f"> {text}"
