"""Placing an answer's citations without a second parse when every ``[^n]`` is one.

``bot.grounding._citation_marks`` reads the parser's citations; when the literal ``[^n]`` of the
text give exactly the parser's numbers, it takes their places as they are, because every
citation token is one literal ``[^n]`` in text order. This checks that claim against the probe
parse (each mark given a number of its own) on texts mixing markers with code, quotes, lists,
escapes and links, where the parser skips some of them.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.claims import CITATION_RE
from bot.grounding import _same_places
from bot.markdown import citations_in, parse

PIECES = [
    "[^1]",
    "[^2]",
    "[^12]",
    "[^0]",
    "\\[^1]",
    "`[^1]`",
    "`",
    "``",
    "\n",
    "\n\n",
    "    ",
    "> ",
    "- ",
    "1. ",
    "```\n",
    "~~~\n",
    "[a](",
    ")",
    "<",
    "<code>",
    "</code>",
    "|",
    " | ",
    "Fact",
    " ",
    ".",
    "*",
    "_",
    "<!-- ",
    " -->",
    "[x]: ",
    "http://a.b/",
]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@given(texts)
def test_when_the_literal_markers_are_the_parsers_citations_their_places_are_too(
    text: str,
) -> None:
    marks = list(CITATION_RE.finditer(text))
    if [int(m.group(1)) for m in marks] == citations_in(parse(text)):
        assert _same_places(text, marks)
