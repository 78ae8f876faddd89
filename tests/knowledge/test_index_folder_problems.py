"""An index whose folder cannot be made is refused in words, not as Python's ``[Errno 17]``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.errors import KnowledgeIndexError
from bot.knowledge.writer import IndexWriter


def test_a_file_where_the_folder_should_be_is_named_with_the_fix(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("not a folder\n", encoding="utf-8")
    target = tmp_path / "notes" / "index.db"
    with pytest.raises(KnowledgeIndexError) as caught:
        IndexWriter(target)
    assert str(caught.value) == (
        f"cannot open {target} for writing: {tmp_path / 'notes'} is a file, not a folder: "
        "set index.path to a file in a folder"
    )


def test_a_folder_that_cannot_be_created_is_said_in_words(tmp_path: Path) -> None:
    # Python's words were "[Errno 40] Too many levels of symbolic links: '…/loop/sub'"
    (tmp_path / "loop").symlink_to("loop")
    target = tmp_path / "loop" / "sub" / "index.db"
    with pytest.raises(KnowledgeIndexError) as caught:
        IndexWriter(target)
    assert str(caught.value) == (
        f"cannot open {target} for writing: cannot create the folder {target.parent}: "
        "too many levels of symbolic links"
    )


def test_ingest_names_the_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    (tmp_path / "notes").write_text("not a folder\n", encoding="utf-8")
    (tmp_path / "config.yaml").write_text("index:\n  path: notes/index.db\n", encoding="utf-8")
    assert main(["ingest", "docs"]) == 2
    err = capsys.readouterr().err
    assert "Errno" not in err
    assert err.count(str(tmp_path / "notes")) == 1, err
    assert err.endswith("is a file, not a folder: set index.path to a file in a folder\n")
