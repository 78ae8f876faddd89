"""``citecast render`` reads an answer whose citations carry per-marker ``occurrences`` (as
``verify`` writes them, and so ``citecast ask --json`` and the REST API), and names a misspelt
key inside one. (Ready to add as tests/core/test_cli_answer_occurrences.py.)"""

from __future__ import annotations

import json

import pytest

from bot.commands.answer_input import read_answer
from bot.errors import ValidationError
from bot.grounding import verify
from bot.models import Answer, Citation, Source

GUIDE = Source(
    id="install#1",
    title="Install guide",
    url="https://docs.example.org/install.html",
    text="Install citecast with pip install citecast. The index is a single SQLite file.",
)
TEXT = "Install with pip install citecast [^1]. The index is a single SQLite file [^1]."


def test_a_grounded_answer_with_occurrences_is_read() -> None:
    answer = verify(Answer(text=TEXT, citations=(Citation(1, GUIDE, 1),)))
    assert answer.citations[0].occurrences
    read, _ = read_answer(json.dumps(answer.to_json()), "answer.json")
    assert read == answer


def test_a_misspelt_occurrence_key_is_named() -> None:
    data = verify(Answer(text=TEXT, citations=(Citation(1, GUIDE, 1),))).to_json()
    data["citations"][0]["occurrences"][1]["qoute"] = "x"
    with pytest.raises(ValidationError, match=r"citations\[0\]: occurrences\[1\]: .*qoute"):
        read_answer(json.dumps(data), "answer.json")
