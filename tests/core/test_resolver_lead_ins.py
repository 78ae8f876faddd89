"""A parenthesised group introduced by words ("see", "cf.", "source:") goes whole with its markers.

``Fact (see [9]).`` with [9] removed reads ``Fact.``, not ``Fact (see).``; the words stay when a
citation is left in the group, and words that only begin like a lead-in stay as written. Every
case is checked with ``resolve()`` and the stream fed in several splits.
"""

from __future__ import annotations

import pytest

from bot.resolver import resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

CASES = [
    # only removed markers after the words: the group goes, with the space before it
    ("Fact (see [9]).", "Fact."),
    ("Fact (see [9], [12]).", "Fact."),
    ("Fact (cf. [9]).", "Fact."),
    ("Fact (cf [9]) more.", "Fact more."),
    ("Fact (source: [9]).", "Fact."),
    ("Fact (Sources [9]; [10]).", "Fact."),
    ("Fact (see also [9]).", "Fact."),
    ("Fact (See also: [9]) and more.", "Fact and more."),
    ("Fact (e.g. [9]).", "Fact."),
    ("Fact (ref. <CIT nope />).", "Fact."),
    ("Fakt (vgl. [9]).", "Fakt."),
    ("Fait (voir [9]).", "Fait."),
    ("Fact（see [9]）。", "Fact。"),
    # a citation left in the group keeps the words
    ("Fact (see [1]).", "Fact (see [^1])."),
    ("Fact (see [9], [1]).", "Fact (see [^1])."),
    ("Fact (see [1], [9]).", "Fact (see [^1])."),
    ("Fact (cf. [9]; [2]).", "Fact (cf. [^1])."),
    # other text in the group keeps it, words and all
    ("Fact (see [9] for details).", "Fact (see for details)."),
    # words that are not (whole) lead-ins are the writer's
    ("Fact (see the guide [9]).", "Fact (see the guide)."),
    ("Fact (se [9]).", "Fact (se)."),
    ("Fact (seen [9]).", "Fact (seen)."),
    ("Fact (see also the manual).", "Fact (see also the manual)."),
    ("Fact (see below).", "Fact (see below)."),
    ("Fact (see", "Fact (see"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_a_group_of_lead_in_words_and_removed_markers_goes_whole(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


def test_the_removed_markers_are_still_reported() -> None:
    answer = resolve("Fact (see [9], [12]).", two_sources())
    assert [(d.marker, d.reason) for d in answer.dropped] == [
        ("[9]", "out_of_range"),
        ("[12]", "out_of_range"),
    ]
