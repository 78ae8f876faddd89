"""``citecast ingest``: summary, skipped files, --if-missing, --rebuild, old schemas."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from tests.knowledge.conftest import EXAMPLES


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(f"index:\n  path: {tmp_path / 'kb' / 'index.db'}\n")
    return path


def test_ingest_prints_a_summary_with_skipped_files(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.md"
    empty.write_text("")
    assert main(["--config", str(config), "ingest", str(EXAMPLES), str(empty)]) == 0
    out = capsys.readouterr().out
    assert "7 files: 6 indexed, 0 unchanged, 1 skipped, 0 removed" in out
    assert "4 PDF pages" in out
    assert "skipped empty.md: empty file" in out
    assert (tmp_path / "kb" / "index.db").exists()

    assert main(["--config", str(config), "ingest", str(EXAMPLES)]) == 0
    assert "6 files: 0 indexed, 6 unchanged" in capsys.readouterr().out


def test_if_missing_does_nothing_when_the_index_is_current(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "ingest", str(EXAMPLES), "--if-missing"]) == 0
    assert "6 indexed" in capsys.readouterr().out
    assert main(["--config", str(config), "ingest", str(EXAMPLES), "--if-missing"]) == 0
    assert "is current" in capsys.readouterr().out


def test_old_schema_is_refused_in_one_line_and_rebuild_fixes_it(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "ingest", str(EXAMPLES)]) == 0
    with sqlite3.connect(tmp_path / "kb" / "index.db") as conn:
        conn.execute("PRAGMA user_version = 1")
    capsys.readouterr()
    assert main(["--config", str(config), "ingest", str(EXAMPLES), "--if-missing"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rebuild with `citecast ingest --rebuild`" in err
    assert main(["--config", str(config), "ingest", "--rebuild", str(EXAMPLES)]) == 0
    assert "6 indexed" in capsys.readouterr().out


def test_missing_path_fails_with_one_line(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(config), "ingest", "no/such/dir"]) == 2
    assert capsys.readouterr().err == "citecast ingest: no/such/dir: no such file or folder\n"
