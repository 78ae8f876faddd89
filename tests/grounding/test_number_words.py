"""Numbers written as words are numbers: "one hour" is not "two hours", "two hours" is "2 hours"."""

from __future__ import annotations

import pytest

from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support
from bot.text_terms import numbers


def _score(passage: str, claim: str) -> float:
    return best_support(LexicalScorer([passage]), passage, claim).score


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        ("Links expire after one hour.", "Links expire after two hours."),
        ("Links expire after two hours.", "Links expire after five hours."),
        ("Links expire after 2 hours.", "Links expire after three hours."),
        ("Teams get twenty-five seats.", "Teams get 20 seats."),
        ("The plan includes ten seats.", "The plan includes twelve seats."),
    ],
)
def test_a_different_spelled_number_is_capped(passage: str, claim: str) -> None:
    assert _score(passage, claim) <= HARD_CHECK_CAP


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        ("Links expire after two hours.", "Links expire after 2 hours."),
        ("Links expire after 2 hours.", "Links expire after two hours."),
        ("Links expire after one hour.", "Links expire after 1 hour."),
        ("Teams get twenty-five seats.", "Teams get 25 seats."),
        ("Keep one hundred files.", "Keep 100 files."),
    ],
)
def test_the_same_number_in_words_or_figures_is_supported(passage: str, claim: str) -> None:
    assert _score(passage, claim) == 1.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Links expire after one hour", {"1 hour"}),
        ("two hours, Twenty five seats", {"2 hour", "25 seat"}),
        ("two thousand users", {"2000 user"}),
        ("one of the files", set()),
        ("all settings in one place", set()),
        ("a second attempt", set()),
        ("no one can see it", set()),
        ("zero downtime", set()),
        ("zero seconds", {"0 second"}),
    ],
)
def test_numbers_reads_words_conservatively(text: str, expected: set[str]) -> None:
    assert numbers(text) == expected
