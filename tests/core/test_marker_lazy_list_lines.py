"""A list item stays open across lazy continuation lines, as CommonMark (and mistune) read it.

An unindented line of plain text right after a list item's paragraph line continues that
paragraph, so an indented line after a later blank line still belongs to the item: it is a
nested item or paragraph, not indented code, and the markers on it are citations. The
resolver's scanner (bot.markers) and the claims' code masking (bot.claims.mask_code) share one
rule for it (bot.marker_line_starts.continues_list); mistune, which renders the answer, is the
oracle here.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.claims import CITATION_RE, mask_code
from bot.markdown import citations_in, parse
from bot.marker_parse import Grammar, Marker
from bot.markers import MarkerScanner, find_markers

CASES = [
    # a lazy line keeps the item open: the indented line after the blank is a nested item
    ("- item\nlazy text\n\n    - nested [^1].", [1]),
    ("- item\nlazy `code` text\n\n    - nested [^1].", [1]),
    ("1. step\nSome lazy text\nmore lazy text\n\n    also the step [^1].", [1]),
    ("- item [^1]\n*lazy* text [^2]\n\n    nested [^3].", [1, 2, 3]),
    # after a blank line an unindented line ends the list: the indented line is code
    ("- item\n\nlazy text\n\n    code [^1].", []),
    # a heading, block quote or thematic break is no lazy line: it ends the list
    ("- item\n# Heading\n\n    code [^1].", []),
    ("- item\n> quote\n\n    code [^1].", []),
    ("- item\n***\n\n    code [^1].", []),
    ("- item\n<!-- note -->\n\n    code [^1].", []),
    ("- item\n<? pi ?>\n\n    code [^1].", []),
    ("- item\n```\n\n    code [^1].", []),
    # any other line stays in the item, even after an empty item or a heading in one
    ("- item\n<div>\n\n    nested [^1].", [1]),
    ("- item\n#tag\n\n    nested [^1].", [1]),
    ("-\nlazy text\n\n    nested [^1].", [1]),
    ("- # Heading\nlazy text\n\n    nested [^1].", [1]),
]


def _scanned(text: str) -> list[int]:
    return [m.numbers[0] for m in find_markers(text) if m.family == "footnote"]


def _streamed(text: str) -> list[int]:
    # the same scanner fed a few characters at a time, as a streamed answer arrives
    scanner = MarkerScanner(Grammar())
    tokens = []
    for at in range(0, len(text), 3):
        tokens += scanner.feed(text[at : at + 3])
    tokens += scanner.finish()
    return [t.numbers[0] for t in tokens if isinstance(t, Marker) and t.family == "footnote"]


def _masked(text: str) -> list[int]:
    return [int(m.group(1)) for m in CITATION_RE.finditer(mask_code(text))]


@pytest.mark.parametrize(("text", "cited"), CASES)
def test_a_lazy_continuation_line_keeps_the_list_item_open(text: str, cited: list[int]) -> None:
    assert citations_in(parse(text)) == cited
    assert _scanned(text) == cited
    assert _streamed(text) == cited
    assert _masked(text) == cited


# A block that ends the list is followed by a blank line: indented code may follow some of them
# directly, which the scanner reads (tests/core/test_marker_block_ends.py) and the claims' masking
# does not yet. A continued line is indented as far as any item's content here: the masking does
# not know an item's content column ("1. " needs 3 columns, "- " 2). (No HTML: whether mistune
# ends a list item at an HTML block depends on the list around it.)
LINES = [
    "- item [^1]",
    "- item",
    "1. step [^1]",
    "    - nested [^1]",
    "   continued [^1]",
    "    indented [^1]",
    "\tTabbed [^1]",
    "Lazy text [^1]",
    "lazy *text*",
    "Section 2 text [^1]",
    "",
    "",
    "# Heading [^1]\n",
    "> quote [^1]\n",
    "***\n",
    "---\n",
    "```\ncode [^1]\n```\n",
    "#tag [^1]",
]  # fmt: skip


@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=12))
def test_the_scanner_and_claims_see_the_citations_mistune_renders(lines: list[str]) -> None:
    counter = iter(range(1, 100))
    text = re.sub(r"\[\^1\]", lambda _: f"[^{next(counter)}]", "\n".join(lines))
    cited = citations_in(parse(text))
    assert _scanned(text) == cited
    assert _streamed(text) == cited
    assert _masked(text) == cited
