"""Ingest never reads through a symlink that leaves the ingested folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.ingest import OUTSIDE_ROOT

SECRET = "Capybara root password lives here.\n"


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """``kb/`` with a document, and ``outside/secret.md`` next to it."""
    kb, outside = tmp_path / "kb", tmp_path / "outside"
    kb.mkdir()
    outside.mkdir()
    (kb / "guide.md").write_text("Capybara care guide for everyone.\n", encoding="utf-8")
    (outside / "secret.md").write_text(SECRET, encoding="utf-8")
    return kb, outside


def test_symlink_outside_the_folder_is_skipped_with_the_reason(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    kb, outside = folders
    (kb / "link.md").symlink_to(outside / "secret.md")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    report = ingest([kb], settings)
    assert report.indexed == 1
    assert [(s.path, s.reason) for s in report.skipped] == [("kb/link.md", OUTSIDE_ROOT)]
    found = KnowledgeIndex(settings.path).search("capybara password", ["public"])
    assert [s.filename for s in found] == ["guide.md"]


def test_symlink_inside_the_folder_is_indexed(folders: tuple[Path, Path], tmp_path: Path) -> None:
    kb, _ = folders
    (kb / "sub").mkdir()
    (kb / "sub" / "alias.md").symlink_to(Path("..") / "guide.md")
    report = ingest([kb], IndexSettings(path=str(tmp_path / "index.db")))
    assert report.indexed == 2 and not report.skipped


def test_a_symlink_retargeted_outside_is_dropped_from_the_index(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    kb, outside = folders
    (kb / "notes.md").write_text("Capybara notes.\n", encoding="utf-8")
    (kb / "link.md").symlink_to(kb / "notes.md")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    assert ingest([kb], settings).indexed == 3
    (kb / "link.md").unlink()
    (kb / "link.md").symlink_to(outside / "secret.md")
    report = ingest([kb], settings)
    assert report.removed == 1 and [s.reason for s in report.skipped] == [OUTSIDE_ROOT]
    assert KnowledgeIndex(settings.path).search("password", ["public"]) == []


def test_ingest_command_names_the_skipped_symlink(
    folders: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb, outside = folders
    (kb / "link.md").symlink_to(outside / "secret.md")
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n")
    assert main(["--config", str(config), "ingest", str(kb)]) == 0
    out = capsys.readouterr().out
    assert "1 indexed" in out and "1 skipped" in out
    assert "skipped kb/link.md: symlink outside the ingested folder" in out
