"""Bracket markers wrapped in a superscript, and OpenAI file-search daggers (bot.marker_styles).

``<sup>[2]</sup>`` is one marker with its tags: left around ``[^1]`` the ``<sup>`` would show a
raised footnote in the channels that render HTML, and around nothing (a removed marker) an
empty tag. The dagger forms of file-search tools (``【1†source】``, ``[1†L10-L20]``,
``【3:0†file.pdf】``) are markers already; their cases guard it. Checked with ``resolve()`` and
the stream fed in several splits (``resolved_everywhere``).
"""

from __future__ import annotations

import pytest

from bot.resolver import resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

SUP_BRACKETS = [
    ("Fact <sup>[2]</sup>.", "Fact [^1]."),
    ("Fact<sup>[2]</sup>.", "Fact[^1]."),  # the brackets decide, whatever comes before
    ("Fact.<sup>[1]</sup> More.", "Fact.[^1] More."),
    ("Fact <SUP> [2] </SUP>.", "Fact [^1]."),
    ("Fact <sup>[^2]</sup>.", "Fact [^1]."),
    ("Fact <sup>[cite: 2]</sup>.", "Fact [^1]."),
    ("Fact <sup>[1][2]</sup>.", "Fact [^1][^2]."),
    ("Fact <sup>[1], [2]</sup>.", "Fact [^1][^2]."),
    ("Fact <sup>[2]</sup><sup>[1]</sup>.", "Fact [^1][^2]."),
    ("Fact <sup>[^1][^2]</sup>.", "Fact [^1][^2]."),
    ("Fact <sup>[2](#install)</sup>.", "Fact [^1]."),
    # a removed marker takes its tags and the space before them
    ("Fact <sup>[9]</sup>.", "Fact."),
    ("Fact<sup>[9]</sup>.", "Fact."),
    ("Fact <sup>[1], [9]</sup>.", "Fact [^1]."),
    ("Fact <sup>[n]</sup>.", "Fact."),
    # more than markers in the tag, or no closing tag: the tag is the writer's
    ("Fact<sup>[2] more</sup>.", "Fact<sup>[^1] more</sup>."),
    ("Fact<sup>[2]</sub>.", "Fact<sup>[^1]</sub>."),
    ("Fact<sup>[2]", "Fact<sup>[^1]"),
    ("Fact<sup>[1]<CIT nope /></sup>.", "Fact<sup>[^1]</sup>."),
    ("x<sup>[a]</sup>", "x<sup>[a]</sup>"),
    ("Area 5 m<sup>2</sup>.", "Area 5 m<sup>2</sup>."),
]

FILE_SEARCH = [
    ("Fact 【1†source】.", "Fact [^1]."),
    ("Fact 【2†Manual】.", "Fact [^1]."),
    ("Fact [1†L10-L20].", "Fact [^1]."),
    ("Fact 【1†L10-L20】.", "Fact [^1]."),
    ("Fact 【2:0†file.pdf】 and 【1:3†guide.md】.", "Fact [^1] and [^2]."),
    ("Fact 【3:0†file.pdf】.", "Fact."),
    ("Fact [9†L1-L2].", "Fact."),
]


@pytest.mark.parametrize(("raw", "text"), SUP_BRACKETS)
def test_a_superscript_around_bracket_markers_goes_with_them(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


@pytest.mark.parametrize(("raw", "text"), FILE_SEARCH)
def test_file_search_daggers_are_markers(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


def test_a_removed_superscript_is_reported_whole() -> None:
    answer = resolve("Fact <sup>[1], [9]</sup>.", two_sources())
    assert [(d.marker, d.reason) for d in answer.dropped] == [
        ("<sup>[1], [9]</sup>", "out_of_range")
    ]
    assert [c.n for c in answer.citations] == [1]
