"""Search finds a passage whatever form of its word a question uses: possessives, verb forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeIndex:
    root = tmp_path_factory.mktemp("forms")
    docs = root / "docs"
    docs.mkdir()
    files = {
        "handbook.md": "# Handbook\n\nThe handbook is written for new staff.\n",
        "kettle.md": "# Kitchen\n\nThe kettle’s lid is loose.\n",
        "refunds.md": "# Refunds\n\nA manager must approve every refund.\n",
        "backups.md": "# Backups\n\nThe nightly job stores a copy offsite.\n",
    }
    for name, text in files.items():
        (docs / name).write_text(text, encoding="utf-8")
    path = root / "index.db"
    ingest([docs], IndexSettings(path=str(path)))
    return KnowledgeIndex(Path(path))


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("handbook's", "handbook.md"),
        ("the handbook’s readers", "handbook.md"),
        ("kettle", "kettle.md"),
        ("kettle's", "kettle.md"),
        ("Who approves refunds?", "refunds.md"),
        ("approving", "refunds.md"),
        ("store", "backups.md"),
        ("stored", "backups.md"),
    ],
)
def test_a_possessive_or_another_form_of_the_word_finds_the_passage(
    forms: KnowledgeIndex, query: str, expected: str
) -> None:
    found = [s.filename for s in forms.search(query)]
    assert found[:1] == [expected], found
