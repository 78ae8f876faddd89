"""A row of a Markdown table is a sentence the built-in answerer can quote, read with its
header: "| retries | 5 | attempts for a failed request |" answers "How many retries for a failed
request?" as "Setting: retries; Default: 5; …", citing the document that holds the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_sentences import sentences_of
from tests.assistant.handbook_index import ask, ingested

SETTINGS = """# Client settings

The client talks to the upstream service over HTTPS.

| Setting | Default | Meaning |
| --- | :---: | --- |
| timeout | 30 | seconds to wait for a reply |
| retries | 5 | attempts for a failed request |
"""

OFFICE = "# Office\n\nThe office is at 12 Harbour Street and opens at 8 on weekdays.\n"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return ingested(tmp_path, {"settings.md": SETTINGS, "office.md": OFFICE})


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "How many retries for a failed request?",
            "Setting: retries; Default: 5; Meaning: attempts for a failed request [1].",
        ),
        # a word of the header ("default") is a word of every row
        (
            "What is the default timeout?",
            "Setting: timeout; Default: 30; Meaning: seconds to wait for a reply [1].",
        ),
    ],
)
def test_a_table_row_answers_with_its_header(
    config: Path, question: str, row: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text, sources = ask(config, question, capsys)
    assert text == row
    assert sources.startswith("[1] Client settings") and "settings.md" in sources
    assert "office.md" not in sources


def test_a_question_the_table_does_not_answer_is_still_not_found(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, sources = ask(config, "How many parking spaces are there?", capsys)
    assert text == NOT_FOUND and sources == ""


def test_rows_are_sentences_and_the_header_and_delimiter_are_not() -> None:
    text = (
        "Limits:\n"
        "| Name | Value |\n"
        "|:-----|------:|\n"
        "| size \\| kind | 10 MB. Per file. |\n"
        "| | |\n"
        "| page | |\n"
    )
    # the prose comes first; an escaped pipe stays in its cell, a full stop does not cut a row,
    # an empty cell is left out and a row of empty cells says nothing
    assert sentences_of(text) == [
        "Limits:",
        "Name: size | kind; Value: 10 MB. Per file.",
        "Name: page",
    ]


def test_rows_of_a_table_cut_from_its_header_are_their_cells() -> None:
    assert sentences_of("| retries | 5 | attempts for a failed request |") == [
        "retries; 5; attempts for a failed request"
    ]
