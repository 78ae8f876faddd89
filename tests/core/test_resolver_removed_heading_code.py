"""A removed empty heading never turns the code after it into text that shows a raw marker.

A heading ends a list, so an indented line right after it is code, and the scanner leaves its
``[1]`` as written. The resolver removed a heading that held only dropped markers and put a
blank line in its place, but after a list a blank line does not end it: the indented line became
the item's text, and every channel showed the raw ``[1]``. Now the heading's hashes stay when code
follows it (an empty heading shows nothing in any channel), so the code stays code.

Each case goes through ``resolve()`` and the stream in several splits; what mistune reads as
text (outside code and raw HTML) never holds a bracketed number.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.markdown import parse
from bot.resolver import resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

RAW_MARKER = re.compile(r"\[\d+\]")
_NOT_TEXT = frozenset({"block_code", "codespan", "block_html", "inline_html"})


def shown_text(tokens: list[dict[str, Any]]) -> list[str]:
    """The text pieces mistune reads outside code and raw HTML."""
    out: list[str] = []
    for token in tokens:
        if token["type"] in _NOT_TEXT:
            continue
        if token["type"] == "text":
            out.append(str(token.get("raw", "")))
        out += shown_text(token.get("children") or [])
    return out


def assert_no_raw_marker_shown(raw: str) -> str:
    text = resolved_everywhere(raw)
    assert [piece for piece in shown_text(parse(text)) if RAW_MARKER.search(piece)] == []
    return text


CASES = [
    ("- item\n# [9]\n    code [1]", "- item\n\n#\n    code [1]"),
    ("- item\n## [9] [9]\n    - [9]", "- item\n\n##\n    - [9]"),
    ("1. item\n# [9]\n      code [1]\n", "1. item\n\n#\n      code [1]"),
    ("- item\n\n# [9]\n    code [1]", "- item\n\n#\n    code [1]"),
    ("- a\n- b\n# [9]\n# [9]\n    code [1]", "- a\n- b\n\n#\n    code [1]"),
    # no code after it: the heading goes, as before
    ("- item\n# [9]\ntext [1]", "- item\n\ntext [^1]"),
    ("Text\n# [9]\n\nmore", "Text\n\n\nmore"),
]


@pytest.mark.parametrize(("raw", "expected"), CASES)
def test_code_after_a_removed_heading_stays_code(raw: str, expected: str) -> None:
    assert assert_no_raw_marker_shown(raw) == expected
    code = [t for t in parse(expected) if t["type"] == "block_code"]
    assert len(code) == ("    " in raw)
    assert resolve(raw, two_sources()).text == expected


# Lines that a removal empties (headings, items, quotes of dropped markers), lines around them,
# and indented lines holding a marker that code keeps as written. (Setext underlines after a
# removed line: test_resolver_removed_setext.)
FRAGMENTS = [
    "# [9]", "## [9] [9]", "[9]", "- [9]", "> [9]", "1. [9]", "  - [9]", "    code [1]",
    "      code [1]", "- item", "Text", "---", "===", "", "  text", "# H", "```", "Text [9]",
    "    - [9]",
]  # fmt: skip


@given(st.lists(st.sampled_from(FRAGMENTS), min_size=2, max_size=6))
def test_no_removal_shows_a_raw_marker(lines: list[str]) -> None:
    assert_no_raw_marker_shown("\n".join(lines))
