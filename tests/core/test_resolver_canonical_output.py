"""The resolved text read again holds only ``[^n]`` markers, where a fuzzer found otherwise.

Each input once gave an answer that, read again, held a marker other than ``[^n]`` (a caret
joined to a footnote, ``[[1]]`` left before parentheses of plain words) or hid a citation in a
link's destination (``[2](x[^1])``). The text is checked with ``resolve()`` and the stream fed
in several splits (``resolved_everywhere``), read again with the marker grammar, and the
citations that mistune (the renderers' parser) shows in it are counted.
"""

from __future__ import annotations

import re

import pytest

from bot.markdown import citations_in, parse
from bot.markers import Grammar, find_markers
from tests.core.resolver_splits import resolved_everywhere

OUTPUT = Grammar(bare_numbers=True)
ZWSP = "\u200b"

# raw, expected text: a caret next to a footnote is kept apart from it ("[^1]^" and "^[^1]"
# would read as one caret marker); a caret marker in a superscript goes with the tags
CARETS = [
    ("Fact [1]^ more", f"Fact [^1]{ZWSP}^ more"),
    ("Fact [1]^^", f"Fact [^1]{ZWSP}^^"),
    ("a ^^[1] b", f"a ^{ZWSP}[^1] b"),
    ("x[1]^2", f"x[^1]{ZWSP}^2"),
    ("[1], [9]^", f"[^1]{ZWSP}^"),
    ("[2] and [9]^", f"[^1]{ZWSP}^"),
    ("<sup>^[2]</sup>", "[^1]"),
    ("Fact <sup>^[2]^</sup>.", "Fact [^1]."),
    ("<sup>^^[2]</sup>", f"<sup>^{ZWSP}[^1]</sup>"),
    ("Install with pip^\nSources:\n- [1] Install guide\n", "Install with pip^\n[^1]"),
]

# raw, expected text: brackets before parentheses of plain words are no link's text, so they
# are read as they would be alone, as "[2](source 1)" always was
NOT_LINKS = [
    ("x [[1]](Source 2)", "x [^1][^2]"),
    ("[cite_start](Source 2)", "[^1]"),
    ("_[cite_start](Source 2)_", "[^1]"),
    ("[x](Source 2)", "[x][^1]"),
    ("Fact [2](source 1).", "Fact [^1][^2]."),
]

# raw, expected text: a citation read where the scanner saw no link must not end up in a
# link's destination: a space ends the destination, or the "(" before it is escaped
DESTINATIONS = [
    # a group before words that hold a marker is read as alone (test_resolver_paren_markers)
    ('[2](*x\u003ccite index="2-1">\u003c/cite>)', "[^1](*x [^1])"),
    ("[2](*x<citation>1</citation>)", "[^1](*x [^2])"),
    ("[2](x<CIT a />)", "[^1](x [^2])"),
    ("[x](a(b<citation>1</citation>))", "[x](a(b [^1]))"),
    ("[](]()<citation>1</citation>)", "[](]() [^1])"),
    ("[]([ 2])", "[]\\([^1])"),
    ("[x]( <citation>1</citation>)", "[x]\\( [^1])"),
    ("[2]([2]", "[^1]([^1]"),
    # no destination open: as before
    ("[g](https://x.test/a) and <citation>1</citation>", "[g](https://x.test/a) and [^1]"),
    ("`](x` <citation>1</citation>", "`](x` [^1]"),
    ("[^1]([2]", "[^1]([^2]"),
]


def canonical(text: str) -> None:
    """Every marker of ``text`` is a ``[^n]``, and mistune shows each (each time) as a citation."""
    found = find_markers(text, OUTPUT)
    assert all(re.fullmatch(r"\[\^\d+\]", marker.raw) for marker in found), found
    assert sorted(citations_in(parse(text))) == sorted(n for m in found for n in m.numbers)


@pytest.mark.parametrize(("raw", "text"), CARETS)
def test_a_caret_next_to_a_citation_stays_apart_from_it(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
    canonical(text)


@pytest.mark.parametrize(("raw", "text"), NOT_LINKS)
def test_brackets_before_plain_words_in_parentheses_read_as_alone(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
    canonical(text)


@pytest.mark.parametrize(("raw", "text"), DESTINATIONS)
def test_a_citation_never_ends_up_in_a_link_destination(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
    canonical(text)
