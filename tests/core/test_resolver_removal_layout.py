"""What a removed marker leaves behind: no empty brackets, list items or headings, no new code.

Every case is checked three ways: ``resolve()``, the stream fed one character at a time, and
the stream fed in larger deltas; the text must be the same in all three.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.markdown import citations_in, parse
from bot.markers import Grammar, find_markers
from bot.models import Answer, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import StreamResolver, resolve

SECRET = b"layout-secret!!!"


def three_sources() -> SourceRegistry:
    """Sources 1..3; source 4 exists but only the "hr" audience may see it."""
    registry = SourceRegistry(["public"], secret=SECRET)
    registry.register_all(
        [
            Source("a", title="Install guide", url="https://docs.test/install"),
            Source("b", title="Manual"),
            Source("c", title="FAQ"),
            Source("hr-1", title="Salaries", audience=("hr",)),
        ]
    )
    return registry


def streamed(raw: str, size: int, coalesce: int = 0) -> Answer:
    resolver = StreamResolver(three_sources(), coalesce=coalesce)
    shown: list[str] = []
    for at in range(0, len(raw), size):
        delta = raw[at : at + size]
        shown += [e.text for e in resolver.feed(delta) if isinstance(e, TextDelta)]
    events, answer = resolver.finish()
    shown += [e.text for e in events if isinstance(e, TextDelta)]
    assert "".join(shown) == answer.text
    return answer


def resolved_everywhere(raw: str) -> str:
    """The text of ``resolve(raw)``, after checking that every stream split gives the same."""
    answer = resolve(raw, three_sources())
    for size in (1, 2, 5):
        assert streamed(raw, size) == answer, size
    return answer.text


# raw, expected text
EMPTIED_GROUPS = [
    ("Fact ([9]).", "Fact."),
    ("Fact ([9]) and more.", "Fact and more."),
    ("Fact ( [9] ).", "Fact."),
    ("Fact ([9], [10]).", "Fact."),
    ("Fact ([9]; <CIT nope />) more.", "Fact more."),
    ("Fact ([^9]).", "Fact."),
    ("Fact (<citation>9</citation>).", "Fact."),
    ("Pay is secret (<CIT hr-1 />).", "Pay is secret."),
    ("Fact（[9]）。", "Fact。"),
    ("([9]) Fact.", "Fact."),
    # a removed marker's separators go with it; the group stays for what it still holds
    ("Fact ([9], [1]).", "Fact ([^1])."),
    ("Fact ([9]; [1]) x.", "Fact ([^1]) x."),
    ("Fact ([9] p. 3).", "Fact (p. 3)."),
    ("Fact ([9], p. 3).", "Fact (p. 3)."),
    # parentheses the model wrote around text, or that never close, stay
    ("Call f() (twice) [1].", "Call f() (twice) [^1]."),
    ("Fact ([1]).", "Fact ([^1])."),
    ("Fact (see the guide [9]).", "Fact (see the guide)."),
    ("Fact ([9]", "Fact ("),
    ("Fact (", "Fact ("),
    # an opener whose paragraph ended, or on a code line, is never taken; one line break is a
    # soft break, a space inside the paragraph (tests/core/test_resolver_soft_breaks.py)
    ("    f(\n\n[9]) x", "    f(\n\n) x"),
    ("A (\n[9]) b", "A b"),
]


@pytest.mark.parametrize(("raw", "text"), EMPTIED_GROUPS)
def test_a_group_of_only_removed_markers_goes_with_its_brackets(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


# a removed marker takes one separator next to it with it; the reader's own commas stay
SEPARATED = [
    ("Fact [1], [9].", "Fact [^1]."),
    ("Fact [9], [1].", "Fact [^1]."),
    ("Fact [9]; [10].", "Fact."),
    ("Fact [1], [9], [2].", "Fact [^1], [^2]."),
    ("Fact ([1], [9]).", "Fact ([^1])."),
    ("Fact [1], [9]\nNext.", "Fact [^1]\nNext."),
    ("Fact [1], [2].", "Fact [^1], [^2]."),
    ("Fact [1], [1].", "Fact [^1], [^1]."),
    ("Fact [1], and [9] more.", "Fact [^1] more."),
    ("Fact [9], then more.", "Fact, then more."),
    ("Fact [9],", "Fact,"),
    # the separator may arrive in a delta of its own, after the citation was decided
    ("Fact [1] ,[9].", "Fact [^1]."),
    ("Fact [1]  \t;[9] x", "Fact [^1] x"),
]


# raw, expected text: a citation written right after a "[" keeps it apart
BRACKETED = [
    ("[[[1]]]", "[\u200b[^1]]"),
    ("See [[[2]]] now.", "See [\u200b[^1]] now."),
    ("x [[1][2]]", "x [\u200b[^1][^2]]"),
    ("[[1]] stays one marker", "[^1] stays one marker"),
]


@pytest.mark.parametrize(("raw", "text"), BRACKETED)
def test_a_citation_after_a_bracket_is_still_one_footnote(raw: str, text: str) -> None:
    resolved = resolved_everywhere(raw)
    assert resolved == text
    found = find_markers(resolved, OUTPUT_GRAMMAR)
    assert found and all(re.fullmatch(r"\[\^\d+\]", m.raw) for m in found), found


@pytest.mark.parametrize(("raw", "text"), SEPARATED)
def test_a_removed_marker_takes_its_separator(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


EMPTIED_LINES = [
    ("Steps:\n- [9]\n- Run it [1].", "Steps:\n- Run it [^1]."),
    ("Steps:\n* [9] [10]\n* Run it [1].", "Steps:\n* Run it [^1]."),
    ("1. [9]\n2. Run it [1].", "1. Run it [^1]."),
    ("- a\n  - [9]\n- b", "- a\n- b"),
    ("- a\n- ([9])\n- b", "- a\n- b"),
    ("- a\n- [9]\r\n- b", "- a\n- b"),
    ("- a\n- [9]", "- a"),
    ("> a\n> [9]\n> b", "> a\n> b"),
    ("> - [9]\n> - b [1]", "> - b [^1]"),
    # a heading ends the paragraph before it: its line goes, the paragraph break stays
    ("Intro.\n## [9]\nText [1].", "Intro.\n\nText [^1]."),
    ("Intro.\n\n## [9]\n\nText.", "Intro.\n\n\nText."),
    ("# [9]\nText.", "Text."),
    # content after the removed marker keeps the line
    ("- [9] Run it.", "- Run it."),
    ("## [9] Setup", "## Setup"),
    ("- [1] Run it.", "- [^1] Run it."),
    # a line that was only a prefix without a marker is the model's own
    ("Steps:\n-\n1.", "Steps:\n-\n1."),
    ("x\n-\n[9]\ny", "x\n-\ny"),
    ("x\n-\r\n[9]\ny", "x\n-\r\ny"),
    ("Para\n\n    -\n\n[9]\nx", "Para\n\n    -\n\nx"),
    ("```\n-\n```\n[9]\nx", "```\n-\n```\nx"),
    # a table row keeps its columns when its first cell held only a removed marker
    ("a | b\n--|--\n[9] | x", "a | b\n--|--\n\u200b| x"),
    ("| a | b |\n|---|---|\n| [9] | x [1] |", "| a | b |\n|---|---|\n| | x [^1] |"),
]


@pytest.mark.parametrize(("raw", "text"), EMPTIED_LINES)
def test_a_line_of_only_removed_markers_leaves_no_empty_item(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


OUTPUT_GRAMMAR = Grammar(bare_numbers=True)

HEADS = ["", "Intro.\n\n", "Intro.\n", "# Title\n", "- item\n\n"]
REMOVED_LINES = ["[9]", "  [9]", "[9] [10]", "- [9]", "1. [9]", "> [9]", "([9])"]
INDENTS = ["    ", "\t", "      ", "  \t"]


@pytest.mark.parametrize(
    ("head", "removed", "indent"), list(itertools.product(HEADS, REMOVED_LINES, INDENTS))
)
def test_the_line_after_a_removed_line_does_not_become_code(
    head: str, removed: str, indent: str
) -> None:
    # the indented line continues the paragraph of the removed line, so its [1] is a marker;
    # once that line is gone it must not read as indented code (where "[^1]" would show raw)
    raw = f"{head}{removed}\n{indent}more [1] here.\nEnd."
    text = resolved_everywhere(raw)
    assert "more [^1] here." in text
    found = [m.raw for m in find_markers(text, OUTPUT_GRAMMAR)]
    assert found == ["[^1]"], text


@pytest.mark.parametrize(("head", "indent"), list(itertools.product(HEADS[:4], INDENTS)))
def test_the_code_after_a_removed_heading_stays_code(head: str, indent: str) -> None:
    # an ATX heading ends on its line: the indented line after it is code (mistune starts it
    # there, no blank line needed), its [1] as written; the heading's removal keeps it code
    raw = f"{head}## [9]\n{indent}more [1] here.\nEnd."
    assert citations_in(parse(raw.replace("[1]", "[^1]"))) == []
    text = resolved_everywhere(raw)
    assert f"{indent}more [1] here." in text
    assert "block_code" in [t["type"] for t in parse(text)]
    assert find_markers(text, OUTPUT_GRAMMAR) == []


# "##" on its own line before an indented line, after a list item (or its continuation)
KEPT_HASHES = re.compile(
    r"(?m)^((?:[ \t]*(?:[-*+]|\d+[.)])(?:[ \t].*)?|[ \t]+\S.*)\n\n?)##[ \t]*$(?=\n[ \t])"
)
EMPTY_BLOCK = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d+[.)]|#{1,6})[ \t]*$", re.MULTILINE)
FRAGMENTS = [
    "Fact",
    " ",
    "\n",
    "\n\n",
    "[1]",
    "[9]",
    "[10]",
    "<CIT hr-1 />",
    "(",
    ")",
    ", ",
    "- ",
    "1. ",
    "## ",
    "> ",
    "    ",
    "\t",
    "|",
    "\r\n",
    ".",
    ",",
    ";",
    "`",
    "[cite ",
    "[^",
    "1]",
    " \t;",
]
layouts = st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join)


@given(layouts, st.sampled_from([1, 3, 7]), st.sampled_from([0, 16, 128]))
def test_layout_removals_stream_like_resolve(raw: str, size: int, coalesce: int) -> None:
    assert streamed(raw, size, coalesce) == resolve(raw, three_sources())


@given(layouts)
def test_removals_leave_no_empty_group_or_block_that_was_not_written(raw: str) -> None:
    text = resolve(raw, three_sources()).text
    if "()" not in raw.replace(" ", ""):
        assert "()" not in text.replace(" ", "")
    # an empty list item, heading or quote line in the answer was one in the raw text too,
    # except the hashes kept on purpose between a list and indented code (README: they end
    # the list, so the code does not become the item's text)
    written = {line.strip() for line in EMPTY_BLOCK.findall(raw.replace("\r", ""))}
    for line in EMPTY_BLOCK.findall(KEPT_HASHES.sub(r"\1", text.replace("\r", ""))):
        assert line.strip() in written, (raw, text)


# raw, expected text: a removed heading with an indented line after it goes whole, hashes and
# all (that line was code and stays code where it lands: at the start, or after the paragraph
# break the heading's removal leaves); only after a list do the hashes stay, to end it
# (tests/core/test_resolver_removed_heading_code.py)
HEADING_BEFORE_INDENT = [
    ("## [9]\n \t;", " \t;"),
    ("## [9]\n\t;", "\t;"),
    ("## [9]\n  \t;", "  \t;"),
    ("## [9]\n    ;", "    ;"),
    ("## [9]\r\n \t;", " \t;"),
    ("## [9] [10]\n \t; [1]", " \t; [1]"),
    ("## [9]\n\n \t;", "\n \t;"),
    ("Fact\n## [9]\n \t;", "Fact\n\n \t;"),
    ("Fact [1].\n\n## [9]\n \t;\nFact [1].", "Fact [^1].\n\n \t;\nFact [^1]."),
    ("> ## [9]\n>     x", ">     x"),
    # neighbours: the line after a removed item or quote line continued its paragraph
    ("## [9]\n;", ";"),
    ("> [9]\n \t;", ";"),
    ("- [9]\n \t;", ";"),
    ("- a\n## [9]\n \t;", "- a\n\n##\n \t;"),
]


@pytest.mark.parametrize(("raw", "text"), HEADING_BEFORE_INDENT)
def test_a_removed_heading_before_an_indented_line_goes_whole(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
    assert resolve(raw, three_sources()).text == text
    # what was code stays code
    was_code = [t["raw"] for t in parse(raw) if t["type"] == "block_code"]
    assert [t["raw"] for t in parse(text) if t["type"] == "block_code"] == was_code
