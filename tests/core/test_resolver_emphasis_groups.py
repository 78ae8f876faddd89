"""Emphasis that wraps only a group of markers goes with them (bot.marker_emphasis):
``**[1][2]**`` reads ``[^1][^2]``, ``_[9][10]_`` leaves nothing; the separators between the
markers are read as between any markers of one group. Emphasis that also wraps words, or does
not close right after the last marker, stays the writer's. A run before a marker of any family
(``_<CIT a />_``, ``**<sup>[2]</sup>**``) is read the same way. Checked with ``resolve()`` and the
stream in several splits (``resolved_everywhere``), and the output read again has only
canonical ``[^n]`` markers.
"""

from __future__ import annotations

import pytest

from bot.marker_emphasis import MAX_GROUP
from bot.markers import Grammar, Marker, MarkerScanner, find_markers
from bot.resolver import resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

CASES = [
    ("Fact **[1][2]**.", "Fact [^1][^2]."),
    ("Fact _[1][1]_.", "Fact [^1]."),
    ("_[1][1]_", "[^1]"),
    ("Fact *[1], [2]*.", "Fact [^1], [^2]."),
    ("Fact **[1] [2]**.", "Fact [^1][^2]."),
    ("Fact __[1]; [2]__ x", "Fact [^1]; [^2] x"),
    ("Fact ***[1] and [2]*** x", "Fact [^1] and [^2] x"),
    ("Fact _[1] or [2]_.", "Fact [^1] or [^2]."),
    ("Fact **[9][10]**.", "Fact."),
    ("Fact **[9] [1]**.", "Fact [^1]."),
    ("Fact _[1][9]_ here.", "Fact [^1] here."),
    ("Fact **[1][2]**\nnext", "Fact [^1][^2]\nnext"),
    ("Fact **[cite_start][1]**.", "Fact [^1]."),
    ("Fact _<CIT a />_ x", "Fact [^1] x"),
    ("Fact **<sup>[2]</sup>**.", "Fact [^1]."),
    ("Fact _[1]<CIT b />_.", "Fact [^1][^2]."),
    ("Fact _\ue200[1]_.", "Fact [^1]."),
    # the writer's emphasis stays
    ("Fact **[1][2] bold**.", "Fact **[^1][^2] bold**."),
    ("Fact _[1] andy [2]_ x", "Fact _[^1] andy [^2]_ x"),
    ("Fact _[1] an [2]_ x", "Fact _[^1] an [^2]_ x"),
    ("Fact _[1][2]__ x", "Fact _[^1][^2]__ x"),
    ("Fact _[1][2]_x", "Fact _[^1][^2]_x"),
    ("Fact **[1][2]* x", "Fact **[^1][^2]* x"),
    ("Fact _[1] [2] _ x", "Fact _[^1][^2] _ x"),
    ("Fact _[1][2]", "Fact _[^1][^2]"),
    ("Fact _[1]\n[2]_ x", "Fact _[^1]\n[^2]_ x"),
    ("Fact _[1] `[2]`_ x", "Fact _[^1] `[2]`_ x"),
    ("snake_[1][2]_ x", "snake_[^1][^2]_ x"),
    ("Fact _[1]_ _[2]_.", "Fact [^1][^2]."),
    ("Fact __[1]_[2]_ x", "Fact __[^1][^2] x"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_emphasis_around_a_group_of_markers_alone_goes_with_it(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


@pytest.mark.parametrize(("raw", "_text"), CASES)
def test_the_resolved_text_read_again_has_only_canonical_markers(raw: str, _text: str) -> None:
    answer = resolve(raw, two_sources())
    for marker in find_markers(answer.text, Grammar(bare_numbers=True)):
        assert marker.family == "footnote"
        assert marker.raw == f"[^{marker.numbers[0]}]"


def test_the_run_goes_into_the_first_and_the_last_markers_raw() -> None:
    raw = "Fact **[1], [2] [3]**."
    tokens = MarkerScanner(Grammar(bare_numbers=True)).scan_all(raw)
    markers = [t for t in tokens if isinstance(t, Marker)]
    assert [(m.raw, m.offset, m.lead) for m in markers] == [
        ("**[1]", 5, " "),
        ("[2]", 12, " "),
        ("[3]**", 16, " "),
    ]
    assert [t for t in tokens if not isinstance(t, Marker)] == ["Fact", ",", "."]
    for marker in markers:
        assert raw[marker.offset : marker.offset + len(marker.raw)] == marker.raw


def test_dropped_markers_of_an_emphasised_group_point_at_their_raw_text() -> None:
    raw = "Fact **[9][10]**."
    answer = resolve(raw, two_sources())
    assert answer.text == "Fact."
    assert [(d.marker, raw[d.offset : d.offset + len(d.marker)]) for d in answer.dropped] == [
        ("**[9]", "**[9]"),
        ("[10]**", "[10]**"),
    ]


def test_a_group_longer_than_the_limit_is_decided_alike_in_every_split() -> None:
    # past MAX_GROUP the run is the writer's (a stream holds no more back), though the
    # repeated markers then collapse into one; only hostile text gets there
    markers = "[1]" * (MAX_GROUP // 3 + 1)
    assert resolved_everywhere(f"Fact _{markers}_ x") == "Fact _[^1]_ x"
    short = "[1]" * (MAX_GROUP // 3 - 1)
    assert resolved_everywhere(f"Fact _{short}_ x") == "Fact [^1] x"
