"""``index.path`` naming a folder is said in words by every command that reads the index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.errors import KnowledgeIndexError
from bot.knowledge import KnowledgeIndex

FOLDER = "index.path {path} is a folder, not an index file; set index.path to a file name"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / ".citecast").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Retries\n\nWe retry 5 times.\n", encoding="utf-8")
    (tmp_path / "cases.jsonl").write_text(
        json.dumps({"id": "q", "question": "How often do we retry?"}) + "\n", encoding="utf-8"
    )
    path = tmp_path / "config.yaml"
    # port 0: were serve to get past the index, it would take any free loopback port
    path.write_text("index:\n  path: .citecast\nweb:\n  port: 0\n", encoding="utf-8")
    return path


def test_opening_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    # SQLite's words were "disk I/O error", which sent one looking for a failing disk
    with pytest.raises(KnowledgeIndexError) as caught:
        KnowledgeIndex(tmp_path)
    assert str(caught.value) == FOLDER.format(path=tmp_path)


@pytest.mark.parametrize(
    "argv",
    [
        ["ask", "How often do we retry?"],
        ["eval", "cases.jsonl"],
        ["ingest", "docs", "--if-missing"],
        ["serve"],
    ],
    ids=["ask", "eval", "ingest-if-missing", "serve"],
)
def test_commands_say_index_path_is_a_folder(
    config: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(["--config", str(config), *argv]) == 2
    out, err = capsys.readouterr()
    index = config.parent / ".citecast"
    assert err == f"citecast {argv[0]}: {FOLDER.format(path=index)}\n"
    assert out == ""
