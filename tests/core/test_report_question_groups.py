"""``citecast report`` lists one line per question however it was typed.

"What is the capital of France?" and "what is the capital of france" were two lines (grouped
by case and spacing only), and the line showed the latest spelling. The group now sets aside
the punctuation around a question too (not inside it, where it changes what is asked), and
shows the spelling asked most often, the first one on a tie.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store
from bot.usage_report import build_report, grouping_form

NOTHING = {"text": "I could not find anything about that in the knowledge base.", "citations": []}


def unanswered(tmp_path: Path, questions: list[str]) -> tuple[tuple[str, int], ...]:
    store = Store(tmp_path / "store.db", retention=None)
    try:
        for i, question in enumerate(questions):
            store.add_turn(f"c{i}", "web", question, NOTHING)
        return build_report(store, 0.0, 30.0).unanswered
    finally:
        store.close()


def test_case_spacing_and_the_punctuation_around_a_question_make_one_line(
    tmp_path: Path,
) -> None:
    asked = [
        "What is the capital of France?",
        "what is the capital of france",
        "  What is the capital  of France ?! ",
        "¿What is the capital of France?",
        '"what is the capital of France"',
        "What is the capital of France?",
        "Where is Paris?",
    ]
    assert unanswered(tmp_path, asked) == (
        ("What is the capital of France?", 6),  # spelt so twice, every other spelling once
        ("Where is Paris?", 1),
    )


def test_on_a_tie_the_spelling_asked_first_is_shown(tmp_path: Path) -> None:
    asked = ["how do refunds work", "How do refunds work?", "HOW DO REFUNDS WORK?!"]
    assert unanswered(tmp_path, asked) == (("how do refunds work", 3),)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("What is C#?", "What is C?"),
        ("Is C++ supported?", "Is C supported?"),
        ("Does it run on .NET?", "Does it run on NET?"),
        ("what's new", "whats new"),
        ("Can I use v1.2?", "Can I use v12?"),
        (".NET?", "NET?"),  # a leading "." is part of a name, not punctuation around it
    ],
)
def test_punctuation_inside_a_question_still_tells_questions_apart(one: str, other: str) -> None:
    assert grouping_form(one) != grouping_form(other)


def test_a_question_of_only_punctuation_keeps_it() -> None:
    assert grouping_form("???") == "???"
    assert grouping_form("?!") != grouping_form("???")
    assert grouping_form("Why?") == grouping_form("why") == "why"
