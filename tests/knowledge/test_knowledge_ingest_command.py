"""``citecast ingest``: summary, skipped files, --if-missing, --rebuild, old schemas."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from tests.knowledge.conftest import EXAMPLES

ROOT = EXAMPLES.parent


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


def test_if_missing_builds_a_missing_index_and_leaves_an_existing_one(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "ingest", str(EXAMPLES), "--if-missing"]) == 0
    assert "6 indexed" in capsys.readouterr().out
    assert main(["--config", str(config), "ingest", str(EXAMPLES), "--if-missing"]) == 0
    assert capsys.readouterr().out == (
        f"index {tmp_path / 'kb' / 'index.db'} exists (6 files, 42 chunks); --if-missing "
        "builds a missing index or re-reads what an older citecast read; run `citecast ingest "
        "PATH` to update it\n"
    )


@pytest.mark.parametrize("change", ["edited", "new"])
def test_if_missing_never_calls_an_index_current_that_it_did_not_check(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    # a file edited since the index was built, or one that was never ingested: --if-missing
    # leaves the index as it is, and used to say "is current; nothing to do" all the same
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nHeron facts.\n")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    capsys.readouterr()
    if change == "edited":
        (docs / "guide.md").write_text("# Guide\n\nHeron facts, revised.\n")
        paths = [str(docs)]
    else:
        (tmp_path / "other.md").write_text("# Other\n\nEgret facts.\n")
        paths = [str(docs), str(tmp_path / "other.md")]
    assert main(["--config", str(config), "ingest", *paths, "--if-missing"]) == 0
    out = capsys.readouterr().out
    assert "current" not in out and "nothing to do" not in out
    tail = "(1 file, 1 chunk); --if-missing builds a missing index or re-reads what an older "
    tail += "citecast read; run `citecast ingest"
    assert out.endswith(f"{tail} PATH` to update it\n")
    assert main(["--config", str(config), "ingest", *paths]) == 0  # what the message says
    indexed = "1 indexed, 0 unchanged" if change == "edited" else "1 indexed, 1 unchanged"
    assert indexed in capsys.readouterr().out


def test_old_schema_is_refused_in_one_line_and_rebuild_fixes_it(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "ingest", str(EXAMPLES)]) == 0
    with sqlite3.connect(tmp_path / "kb" / "index.db") as conn:
        conn.execute("PRAGMA user_version = 1")
    capsys.readouterr()
    assert main(["--config", str(config), "ingest", str(EXAMPLES), "--if-missing"]) == 2
    err = capsys.readouterr().err
    rebuild = f"rebuild it: `citecast --config {config} ingest --rebuild "
    assert err.count("\n") == 1 and rebuild in err
    assert main(["--config", str(config), "ingest", "--rebuild", str(EXAMPLES)]) == 0
    assert "6 indexed" in capsys.readouterr().out


def test_missing_path_fails_with_one_line(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(config), "ingest", "no/such/dir"]) == 2
    assert capsys.readouterr().err == "citecast ingest: no/such/dir: no such file or folder\n"


def test_missing_path_is_an_error_even_when_the_index_is_current(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "ingest", str(EXAMPLES)]) == 0
    capsys.readouterr()
    assert main(["--config", str(config), "ingest", "nope", "--if-missing"]) == 2
    assert capsys.readouterr() == ("", "citecast ingest: nope: no such file or folder\n")


def test_if_missing_with_rebuild_is_refused_and_nothing_is_written(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--config", str(config), "ingest", str(EXAMPLES), "--if-missing", "--rebuild"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == "citecast ingest: --if-missing and --rebuild cannot be used together\n"
    assert not (tmp_path / "kb" / "index.db").exists()


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_path_that_is_neither_file_nor_folder_is_refused(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    if kind == "fifo":
        path = str(tmp_path / "pipe.md")
        os.mkfifo(path)
    else:
        path = os.devnull
    assert main(["--config", str(config), "ingest", path]) == 2
    assert capsys.readouterr().err == f"citecast ingest: {path}: not a regular file or folder\n"


def test_a_fifo_inside_a_folder_is_skipped_not_read(config: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nHeron facts.\n")
    os.mkfifo(docs / "stuck.md")  # reading it would wait for a writer forever
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--config", str(config), "ingest", str(docs)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "2 files: 1 indexed, 0 unchanged, 1 skipped" in done.stdout
    assert "skipped docs/stuck.md: not a regular file" in done.stdout


def test_counts_of_one_are_singular(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nHeron facts.\n")
    (docs / "notes.csv").write_text("a,b\n")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    out = capsys.readouterr().out
    assert "1 file: 1 indexed, 0 unchanged, 0 skipped, 0 removed; 1 chunk and 0 PDF pages" in out
    assert "1 file of other types ignored" in out
    assert ": 1 file, 1 chunk, " in out
    assert main(["--config", str(config), "ingest", str(docs), "--if-missing"]) == 0
    assert "exists (1 file, 1 chunk); --if-missing builds a missing" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("", "--audience '' names no group; write public if everyone may read it"),
        ("staff,", "empty group name in --audience 'staff,'; write public if everyone may read it"),
    ],
)
def test_an_empty_audience_flag_is_refused_not_made_public(
    config: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    value: str,
    reason: str,
) -> None:
    assert main(["--config", str(config), "ingest", str(EXAMPLES), "--audience", value]) == 2
    assert capsys.readouterr().err == f"citecast ingest: {reason}\n"
    assert not (tmp_path / "kb" / "index.db").exists()
