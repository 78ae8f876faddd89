"""The question as the built-in answerer reads it: without marker-like text a user pasted.

A question that carries "[1][2][3]" or ``<source id="2">`` (copied from an answer, or trying
the answerer out) asks the same as without them; read as question words, their numbers would
find the sentences that merely hold a 1, a 2 or a 3 ("it waits 1 second, then 2, then 4").
Only what looks like a citation goes: a bracketed number of one or two digits (a list or range
of them, after an optional caret or word: "[^1]", "[1, 2]", "[source 2]"), its full-width form
"【1】", and citation tags (``<cite>``, ``<citation>``, ``<source>``, ``<ref>``, ``<sup>``) with
a number inside; "error 429", "[429]" and "<script>" stay. "What time" before the question's
verb asks when: it is read as "when", so "time" is no question word. A ping of everyone
("@everyone", "@here", "@channel", Slack's ``<!here>`` or a user group's ``<!subteam^…>``) or
a forum tag ("[help]", "[solved]") that opens or ends a line (a forum post's title: "Installing
on Linux [help] @everyone") is no question word either.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.assistant.turn import Turn

_NUMBERS = r"\d{1,2}(?:\s*[,;\-–]\s*\d{1,2})*"
_MARKER = re.compile(
    rf"\[\^?\s*(?:[A-Za-z]+\s*:?\s*)?{_NUMBERS}\s*\]"
    rf"|【\s*{_NUMBERS}\s*】"
    rf"|<(cite|citation|source|ref|sup)\b[^<>]*>\s*(?:{_NUMBERS})?\s*</\1\s*>"
    r"|</?(?:cite|citation|source|ref|sup)\b[^<>]*>",
    re.I,
)


# "What time does … open?" asks when, as "how long" asks for a duration (whose "long"
# bot.knowledge.terms.query_terms does not search): "time" would find "the time to first
# token". Only before the verb of a question, so "What time zone …" keeps its "time".
_WHAT_TIME = re.compile(
    r"\b(?:at\s+)?what\s+time(?=\s+(?:do|does|did|is|are|was|were|will|would|should|can|could)\b)",
    re.I,
)


# A ping of everyone ("@everyone", "@here", "@channel") that opens or ends a line calls people
# to a post ("Installing on Linux [help] @everyone", a Discord forum post's title): its
# "everyone" found the passage about pings and outweighed the question's own words. Inside a
# sentence ("Why does citecast never ping @everyone?") it is what is asked about, and stays.
# Slack's own form of a ping (``<!here>``, ``<!channel|@channel>``, a user group's
# ``<!subteam^S123|@team>``) is one too: the Slack connector reads the labelled ones as their
# label, and a question that reached the answerer another way may still carry the token.
_PINGED = (
    r"(?:@(?:everyone|here|channel)\b"
    r"|<!(?:everyone|here|channel)(?:\|[^<>]*)?>"
    r"|<!subteam\^[^<>|]*(?:\|[^<>]*)?>)"
)
# several in a row ("@here @channel") are one call
_PING = re.compile(rf"^(?:[ \t]*{_PINGED})+|(?<![\w@])(?:{_PINGED}[ \t]*)+$", re.I | re.M)
# a forum tag in brackets that opens or ends a line ("[help] …", "… [solved]"): no question word
_TAG = re.compile(
    r"^[ \t]*\[(?:help|solved|resolved|question|urgent|answered|closed|fixed)\]"
    r"|\[(?:help|solved|resolved|question|urgent|answered|closed|fixed)\][ \t]*$",
    re.I | re.M,
)


def plain_question(text: str) -> str:
    """``text`` with each marker-like part replaced by a space, a ping of everyone and a forum
    tag at a line's start or end removed, and "what time" (before the question's verb) read as
    "when"."""
    text = _TAG.sub(" ", _PING.sub(" ", _MARKER.sub(" ", text)))
    return _WHAT_TIME.sub("when", text)


def plain_turn(turn: Turn) -> Turn:
    """``turn`` with its question and the earlier questions of its history made plain."""
    history = [replace(e, question=plain_question(e.question)) for e in turn.history]
    return replace(turn, question=plain_question(turn.question), history=history)
