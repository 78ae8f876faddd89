"""A number the question asks for numbers the word before it: "What is jaguarundi rule number
3?" was answered with rule number 4, the sentence under the heading "Chapter 3", whose number
outweighed the sentence that writes "rule number 3"."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.assistant.handbook_index import ask, ingested

RULES = "".join(
    f"## Chapter {n}\n\nThe jaguarundi rule number {n + 1} is to stay calm.\n\n" for n in range(4)
)


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return ingested(tmp_path, {"rules.md": "# Jaguarundi rules\n\n" + RULES})


@pytest.mark.parametrize("number", [1, 3, 4])
def test_the_rule_asked_for_is_quoted_not_the_one_under_a_chapter_of_its_number(
    rules: Path, capsys: pytest.CaptureFixture[str], number: int
) -> None:
    assert ask(rules, f"What is jaguarundi rule number {number}?", capsys)[0] == (
        f"The jaguarundi rule number {number} is to stay calm [1]."
    )


def test_a_heading_that_names_the_numbered_word_still_answers(
    rules: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ask(rules, "What does chapter 3 say about the jaguarundi?", capsys)[0] == (
        "The jaguarundi rule number 4 is to stay calm [1]."
    )
