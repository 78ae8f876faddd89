"""Each part of a two-part question is answered, however few of the whole question's words it has.

"What is the hotel limit and when does the car park open?" was answered with the car park
alone: the hotel row holds two of the question's five words, and a sentence had to hold half
of them; "What is the taxi limit and where are the bicycle racks?" (two of four) got both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive_parts import covers_a_part
from tests.assistant.handbook_index import TRAVEL, ask, ingested

TRAINING = """\
# Training

## Courses

The course budget limit is 900 EUR per employee and year.
"""

ONBOARDING = """\
# Onboarding at Northwind

## Parking

The staff car park opens at 05:30. Bicycle racks are behind building C.
"""


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config whose index holds a travel policy with a table, a training note and parking."""
    base = tmp_path_factory.mktemp("part-answers")
    documents = {"travel.md": TRAVEL, "training.md": TRAINING, "onboarding.md": ONBOARDING}
    return ingested(base, documents)


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "What is the hotel limit and when does the car park open?",
            ["Hotel; Limit per day: 140 EUR", "The staff car park opens at 05:30"],
        ),
        (
            "When does the staff car park open and what is the hotel limit?",
            ["Hotel; Limit per day: 140 EUR", "The staff car park opens at 05:30"],
        ),
        (
            "What is the course budget limit and when does the car park open?",
            ["The course budget limit is 900 EUR", "The staff car park opens at 05:30"],
        ),
        (
            "What is the taxi limit and where are the bicycle racks?",
            ["Taxi; Limit per day: 60 EUR", "Bicycle racks are behind building C"],
        ),
    ],
)
def test_each_part_of_a_two_part_question_is_answered(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str, parts: list[str]
) -> None:
    answer = ask(handbook, question, capsys)[0]
    assert all(part in answer for part in parts), answer
    # the other rows hold only "limit": they answer neither part
    assert "Meals" not in answer


def test_a_part_is_covered_by_most_of_its_own_words() -> None:
    counted = frozenset({"hotel", "limit", "car", "park", "open"})
    parts = [frozenset({"hotel", "limit"}), frozenset({"car", "park", "open"})]
    assert covers_a_part(frozenset({"hotel", "limit", "eur"}), counted, parts)
    assert not covers_a_part(frozenset({"limit", "meal"}), counted, parts)
    # a part of one word is no more than a word of the question
    assert not covers_a_part(frozenset({"discord"}), counted, [frozenset({"discord"})])
