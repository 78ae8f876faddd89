"""Nested or mixed emphasis that wraps only markers goes with them (bot.marker_emphasis).

Runs of different kinds before a marker (``_**[1]**_``, ``**_[1]_**``) are read run by run and
close in mirror order; a marker of a group may have emphasis of its own (``__[1]**[2]**__``).
Before, only the innermost run went with the markers and the outer one was left wrapping only
footnotes (``_[^1]_``, ``__[^1][^2]__``), which a second reading takes for a marker again: the
output was not canonical. Emphasis that also wraps words stays the writer's; when only the inner
runs close around the markers, the outer ones stay. Checked with ``resolve()`` and the stream in
several splits (``resolved_everywhere``), and the output read again has only ``[^n]`` markers.
"""

from __future__ import annotations

import re

import pytest

from bot.marker_emphasis import MAX_GROUP, emphasis_opener
from bot.markers import Grammar, Marker, MarkerScanner, find_markers
from bot.resolver import resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

OUTPUT = Grammar(bare_numbers=True)

# raw, expected text ([1] and [2] are sources, [9] is out of range)
CASES = [
    ("__[1]**[2]**__", "[^1][^2]"),
    ("__[1]**[1]**__", "[^1]"),
    ("_**[1]**_", "[^1]"),
    ("**_[1]_**", "[^1]"),
    ("[9],__<CIT a />**[^1]**__[...][2][1]", "[^1][^2]"),
    ("Fact _**[1]**_.", "Fact [^1]."),
    ("Fact **_[1]_ [2]**.", "Fact [^1][^2]."),
    ("Fact *__[1]__ [2]*.", "Fact [^1][^2]."),
    ("Fact _*_[1]_*_ x", "Fact [^1] x"),
    ("Fact __[1] and **[2]**__.", "Fact [^1] and [^2]."),
    ("Fact __[1] **[2]**__ and more", "Fact [^1][^2] and more"),
    ("Fact __<sup>[2]</sup>**<CIT a />**__.", "Fact [^1][^2]."),
    ("Fact _**[9]**_.", "Fact."),
    # a placeholder right after an inner closing run reads as after a marker
    ("Fact **[1]_[2]_[n]** x", "Fact [^1][^2] x"),
]

# raw, expected text: the outer runs stay where they do not close around the markers alone
KEPT = [
    ("Fact _**[1]** x", "Fact _[^1] x"),
    ("_*_[1]_*", "_[^1]"),
    ("__[1]**[2]**", "__[^1][^2]"),
    ("Fact **_[1]_ bold**.", "Fact **[^1] bold**."),
    ("a_**[1]**_ x", "a_[^1]_ x"),  # "a_" is a word: its run opens nothing
    ("Fact __[1]**[2] bold**__", "Fact __[^1]**[^2] bold**__"),
    ("Fact _**[1]***", "Fact _**[^1]***"),
]


def reads_back(text: str) -> None:
    """Every marker ``text`` holds, read again, is a ``[^n]`` footnote."""
    found = find_markers(text, OUTPUT)
    assert all(re.fullmatch(r"\[\^\d+\]", marker.raw) for marker in found), found


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_nested_emphasis_around_markers_alone_goes_with_them(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
    reads_back(text)


@pytest.mark.parametrize(("raw", "text"), KEPT)
def test_runs_that_do_not_close_around_markers_alone_stay(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
    reads_back(text)


def markers_of(raw: str) -> list[tuple[str, int, str]]:
    tokens = MarkerScanner(Grammar(bare_numbers=True)).scan_all(raw)
    markers = [t for t in tokens if isinstance(t, Marker)]
    for marker in markers:
        assert raw[marker.offset : marker.offset + len(marker.raw)] == marker.raw
    return [(m.raw, m.offset, m.lead) for m in markers]


def test_each_run_goes_into_the_raw_of_the_marker_it_opens_or_closes_at() -> None:
    assert markers_of("Fact __[1] **[2]**__.") == [("__[1]", 5, " "), ("**[2]**__", 11, " ")]
    assert markers_of("Fact _**[1]**_.") == [("_**[1]**_", 5, " ")]
    # only the inner run closes: the outer "_" is text and the marker has no spaces before it
    assert markers_of("Fact _**[1]** x") == [("**[1]**", 6, "")]


def test_the_opening_runs_are_read_within_the_groups_bound() -> None:
    assert emphasis_opener("Fact _**", "") == "_**"
    assert emphasis_opener("snake_**", "") == "**"
    assert emphasis_opener("****_", "") == "_"
    assert emphasis_opener("_" + "*_" * MAX_GROUP, "") == ("*_" * MAX_GROUP)[-MAX_GROUP:]
    # nesting as deep as the bound allows still goes with the marker
    depth = MAX_GROUP // 5  # 2 characters a level on either side
    raw = "Fact " + "_*" * depth + "[1]" + "*_" * depth + " x"
    assert resolve(raw, two_sources()).text == "Fact [^1] x"
