"""A removed marker's group may span one line break, and a removal puts nothing invisible in.

A single line break inside a paragraph is a soft break, a space to markdown: ``Fact (see`` /
``[9]).`` reads like ``Fact (see [9]).`` and becomes ``Fact.``. A blank line (a new paragraph)
or an opener on a line indented as code still ends the group. Every case is checked with
``resolve()`` and the stream fed in several splits (``resolved_everywhere``).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.core.resolver_splits import resolved_everywhere

SOFT_BREAKS = [
    # the brief's case, and its neighbours: the line break is inside the group
    ("Fact (see\n[9]).", "Fact."),
    ("Fact (\n[9]).", "Fact."),
    ("Fact (see \n  [9]).", "Fact."),
    ("Fact (see\r\n[9]).", "Fact."),
    ("Fact ([9]\n).", "Fact."),
    ("Fact (see\n[9], [12]) more.", "Fact more."),
    # a citation left in the group: no separator of the removed marker stays
    ("Fact (see\n[9], [1]).", "Fact (see [^1])."),
    ("Fact ([9],\n[1]).", "Fact ([^1])."),
    # the writer's words after the removal keep their line
    ("Fact (see\n[9] d).", "Fact (see\nd)."),
    ("A (see\n[9]\nmore) b", "A (see\nmore) b"),
    # a kept citation changes nothing
    ("Fact (see\n[1]).", "Fact (see\n[^1])."),
    # a blank line ends the paragraph, and an opener in a code line is code's
    ("Fact (see\n\n[9]).", "Fact (see\n\n)."),
    ("    f(\n[9]) x", "    f(\n) x"),
]


@pytest.mark.parametrize(("raw", "text"), SOFT_BREAKS)
def test_a_group_spans_one_line_break(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


NO_INVISIBLE = [
    ("(source [9] d)", "(source d)"),
    ("a (source [9] d)", "a (source d)"),
    ("(Sourc[9]e 1)", "(Source 1)"),
    ("(sources 1,[9] 2 x)", "(sources 1, 2 x)"),
]


@pytest.mark.parametrize(("raw", "text"), NO_INVISIBLE)
def test_a_removal_inside_parenthesised_words_adds_nothing_invisible(raw: str, text: str) -> None:
    resolved = resolved_everywhere(raw)
    assert resolved == text
    assert "\u200b" not in resolved


BACKSLASHES = [
    # an odd backslash before a citation is escaped by one more, which reads as written
    ("a\\【2】", "a\\\\[^1]"),
    ("a\\\\\\【2】", "a\\\\\\\\[^1]"),
    ("a\\\\【2】", "a\\\\[^1]"),
]


@pytest.mark.parametrize(("raw", "text"), BACKSLASHES)
def test_a_backslash_before_a_citation_is_escaped_not_hidden(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


LINE_STARTS = [
    # what a removal leaves at a line start that would begin a list item, heading or quote is
    # escaped (it reads as written), not preceded by a zero-width space
    ("[9]- x", "\\- x"),
    ("[9]# h", "\\# h"),
    ("[9]> q", "\\> q"),
    ("a\n[9]+ b", "a\n\\+ b"),
    ("- [9] - x", "- \\- x"),
    ("[9]    - item [2]\n\n\t[1]", "\\- item [^1]\n\n\t[1]"),
]


@pytest.mark.parametrize(("raw", "text"), LINE_STARTS)
def test_block_syntax_at_a_line_start_is_escaped_not_hidden(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


removed = st.sampled_from(["[9]", "[12]", "<CIT nope />", "[^9]", "<citation>9</citation>"])
seps = st.sampled_from([", ", "; ", " and ", " ", ","])
lead_ins = st.sampled_from(["", "see", "see ", "cf.", "source:", "e.g. "])
groups = st.tuples(removed, st.lists(st.tuples(seps, removed), max_size=3)).map(
    lambda g: g[0] + "".join(s + m for s, m in g[1])
)


@given(lead_ins, groups, st.sampled_from(["\n", "\r\n", " \n  "]))
def test_a_line_break_after_the_opener_reads_as_a_space(lead: str, group: str, brk: str) -> None:
    one_line = resolved_everywhere(f"Fact ({lead} {group}).")
    assert one_line == "Fact."
    assert resolved_everywhere(f"Fact ({lead}{brk}{group}).") == one_line


WRITERS_WORDS = [
    # a word between a removed and a kept citation in a group is the writer's, as it is outside
    # one ("Fact [9] an [1]." -> "Fact an [^1]."): it stays, never read as a separator
    ("Fact (see [9] an [1]).", "Fact (see an [^1])."),
    ("Fact (see [9] a [1]).", "Fact (see a [^1])."),
    ("Fact ([9] an [1]).", "Fact (an [^1])."),
    ("Fact (see\n[9] an [1]).", "Fact (see\nan [^1])."),
    # separators still go with the removed marker
    ("Fact (see [9] and [1]).", "Fact (see [^1])."),
    ("Fact (see [9] &  [1]).", "Fact (see [^1])."),
]


@pytest.mark.parametrize(("raw", "text"), WRITERS_WORDS)
def test_a_word_between_citations_in_a_group_stays(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
