"""The answerer compares words with their accents folded, as the search does: a question
that says "patissier" is answered from the "pâtissier" passage the search found for it (it was
refused), and the other way round."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive_keys import word_key
from tests.assistant.handbook_index import ask, ingested

KITCHEN = """# Kitchen staff

The pâtissier prepares the desserts every morning before seven.

The sommelier chooses the wines for the evening menu.
"""

CAFE = """# Opening hours

The cafe on the terrace opens at noon.
"""


def test_a_word_and_its_accented_form_have_one_key() -> None:
    assert word_key("pâtissiers") == word_key("patissier") == "patissier"
    assert word_key("naïve") == word_key("naive")
    assert word_key("sommelier") != word_key("patissier")


@pytest.mark.parametrize(
    "question",
    ["Who is the patissier?", "What does the patissier do?", "patissier", "Who is the pâtissier?"],
)
def test_a_question_without_the_accent_is_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    config = ingested(tmp_path, {"kitchen.md": KITCHEN})
    assert ask(config, question, capsys)[0] == (
        "The pâtissier prepares the desserts every morning before seven [1]."
    )


def test_a_question_with_an_accent_the_document_leaves_out_is_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ingested(tmp_path, {"hours.md": CAFE})
    assert ask(config, "When does the café on the terrace open?", capsys)[0] == (
        "The cafe on the terrace opens at noon [1]."
    )
