"""Words that only ask whether something is there ("Which statuses exist?", "… are
available?") name no topic, as the verbs that only carry a question do: a document lists the
statuses, it does not say that they "exist"."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive import NOT_FOUND
from tests.assistant.handbook_index import ask, ingested

REPLIES = "# Replies\n\nEvery reply has a status: pending, sent or failed.\n"
OFFICE = "# Office\n\nThe office is at 12 Harbour Street and opens at 8 on weekdays.\n"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return ingested(tmp_path, {"replies.md": REPLIES, "office.md": OFFICE})


@pytest.mark.parametrize(
    "question",
    [
        "Which statuses exist?",
        "What statuses exist for a reply?",
        "Which statuses are available?",
        "What statuses are there?",  # "there" was never a word: it is a stop word
    ],
)
def test_a_presence_word_does_not_hide_a_covered_topic(
    config: Path, question: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text, sources = ask(config, question, capsys)
    assert text == "Every reply has a status: pending, sent or failed [1]."
    assert sources.startswith("[1] Replies") and "office.md" not in sources


@pytest.mark.parametrize("question", ["Which walruses exist?", "Is a walrus available?"])
def test_a_presence_word_does_not_make_an_unknown_topic_answerable(
    config: Path, question: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text, sources = ask(config, question, capsys)
    assert text == NOT_FOUND and sources == ""
