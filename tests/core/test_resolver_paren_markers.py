"""Brackets before parentheses that hold a marker are read as alone, so the text reads back.

``[1](x[9] l)`` is no link (``l`` starts no title) and its ``[9]`` names no source: kept as
text before the parentheses, ``[1]`` read back as a marker once ``[9]`` was removed
(``[1](x l)``), and a removed parenthesised group (``[1]([citation needed])`` -> ``[1]``) did
the same. A bracket group before parentheses whose words hold what may open a marker (up to
the first ``)``) is read as it would be alone; a link's destination stays as written. Checked
with ``resolve()`` and the stream fed in several splits (``resolved_everywhere``), and read back.
"""

from __future__ import annotations

import re

import pytest

from bot.markdown import citations_in, parse
from bot.markers import Grammar, find_markers
from tests.core.resolver_splits import resolved_everywhere

OUTPUT = Grammar(bare_numbers=True)

# raw, expected text ([1] and [2] are sources, [9] is out of range)
CASES = [
    ("[1](x[9] l)", "[^1](x l)"),
    ("[1](Fact[9] Fact)", "[^1](Fact Fact)"),
    ("[2]( [9] the law)", "[^1]( the law)"),
    ("[1](x<CIT nope /> l)", "[^1](x l)"),  # a tag naming no source, removed
    ("[1](x【9】 l)", "[^1](x l)"),
    ("[1](x[^9] l)", "[^1](x l)"),
    ("[1](x[citation needed] l)", "[^1](x l)"),
    ("[1]([citation needed])", "[^1]"),  # the emptied parentheses go with the placeholder
    ("[1](<CIT nope />)", "[^1]"),
    ("[1](\n[n][2]", "[^1]([^2]"),  # a line of markers joined to the "(" before it
    ("x [[1]](x[9] l)", "x [^1](x l)"),
    ("[1](x [2] l)", "[^1](x [^2] l)"),
    # a title is not read (a marker in it would be hidden in the link): words like any others
    ('[1](https://x.test "title [9]")', '[^1](https://x.test "title")'),
]

# raw = expected text: a link's destination is kept as written, markers and all, and
# parentheses without a marker keep the brackets before them text as before
KEPT = [
    "[1](Fact[9])",
    "[1](x[9])",
    "[2](source 1",
    '[1](x "y")',
]


def reads_back(text: str) -> None:
    """Every marker of ``text`` is a ``[^n]``, and mistune shows each (each time) as a citation."""
    found = find_markers(text, OUTPUT)
    assert all(re.fullmatch(r"\[\^\d+\]", marker.raw) for marker in found), found
    assert sorted(citations_in(parse(text))) == sorted(n for m in found for n in m.numbers)


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_brackets_before_parentheses_holding_a_marker_read_as_alone(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
    reads_back(text)


@pytest.mark.parametrize("raw", KEPT)
def test_links_and_markerless_parentheses_keep_their_text(raw: str) -> None:
    assert resolved_everywhere(raw) == raw
    reads_back(raw)
