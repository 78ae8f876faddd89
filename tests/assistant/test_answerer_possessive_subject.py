"""A possessive after the subject it belongs to does not point back: "The server restarts its
workers every hour" is quoted alone, where it was taken for a sentence that needs the one
before it and, with none before it in its passage, never quoted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive_precision import points_back
from tests.assistant.handbook_index import ask, ingested


@pytest.mark.parametrize(
    ("sentence", "back"),
    [
        ("The server restarts its workers every hour.", False),
        ("The axolotl regrows its gills.", False),
        ("The proxy rotates its logs at midnight.", False),
        ("The servers restart their workers.", False),
        ("Each team keeps its own budget.", False),
        ("citecast stores its index in one file.", False),
        # no owner named before the possessive: it is what an earlier sentence named
        ("Its workers restart hourly.", True),
        ("Restart its workers after an upgrade.", True),
        ("To change its name, edit the title.", True),
        ("The size of its cache is fixed.", True),
        ("If you change its name, ingest again.", True),
        ("Once installed, open its settings.", True),
        ("The server restarts it every hour.", True),
    ],
)
def test_a_possessive_points_back_unless_its_owner_comes_first(sentence: str, back: bool) -> None:
    assert points_back(sentence) is back


@pytest.mark.parametrize(
    ("document", "question", "answer"),
    [
        (
            "# Workers\n\nThe server restarts its workers every hour.\n",
            "How often does the server restart its workers?",
            "The server restarts its workers every hour [1].",
        ),
        (
            "# Axolotls\n\nThe axolotl regrows its gills.\n",
            "What does the axolotl regrow?",
            "The axolotl regrows its gills [1].",
        ),
    ],
    ids=["server", "axolotl"],
)
def test_ask_quotes_a_sentence_whose_subject_owns_what_follows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], document: str, question: str, answer: str
) -> None:
    config = ingested(tmp_path, {"notes.md": document})
    assert ask(config, question, capsys)[0] == answer
