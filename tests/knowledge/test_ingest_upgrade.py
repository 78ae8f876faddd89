"""An index an older citecast read, after an upgrade: ``ingest`` says why it re-reads every
file, and ``ingest --if-missing`` (what ``make serve`` runs) re-reads it.

Found on upgrade QA: ``--if-missing`` only checked that an index existed, so a ``make serve``
deployment never got a release's reading fixes (HTML tables kept being quoted without their
header row), and a plain ``citecast ingest`` printed ``11 files: 11 indexed, 0 unchanged``
exactly as if every file had been edited.
"""

from __future__ import annotations

import importlib
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import ingest
from bot.knowledge.reader_age import older_reader_files, older_reader_warning

ingest_module = importlib.import_module("bot.knowledge.ingest_file")
REREAD = "(2 re-read: this citecast reads some files differently)"


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    folder = tmp_path / "kb"
    folder.mkdir()
    (folder / "returns.md").write_text("# Returns\n\nHeron returns cost 5 EUR.\n", "utf-8")
    (folder / "ops.md").write_text("# Ops\n\nEgret sends are retried 5 times.\n", "utf-8")
    return folder


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    return path


def _ingest_with_older_reader(kb: Path, index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as older:
        older.setattr(ingest_module, "READER_VERSION", "10")  # yesterday's release
        assert ingest([kb], IndexSettings(path=str(index))).indexed == 2


def _strip_reader_marks(index: Path) -> None:
    """The index as a citecast before reader marks wrote it: bare sha256 fingerprints."""
    conn = sqlite3.connect(index)
    try:
        conn.execute(
            "UPDATE files SET fingerprint = substr(fingerprint, instr(fingerprint, ':') + 1)"
        )
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize("older", ["older reader", "before reader marks"])
def test_the_summary_says_why_unchanged_files_were_read_again(
    kb: Path,
    tmp_path: Path,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    older: str,
) -> None:
    _ingest_with_older_reader(kb, tmp_path / "index.db", monkeypatch)
    if older == "before reader marks":
        _strip_reader_marks(tmp_path / "index.db")
    assert older_reader_files(tmp_path / "index.db") == (2, 2)
    assert main(["--config", str(config), "ingest", str(kb)]) == 0
    assert f"2 files: 2 indexed {REREAD}, 0 unchanged" in capsys.readouterr().out
    assert older_reader_files(tmp_path / "index.db") == (0, 2)
    (kb / "ops.md").write_text("# Ops\n\nEgret sends are retried 6 times.\n", "utf-8")
    assert main(["--config", str(config), "ingest", str(kb)]) == 0
    # an edit is not a re-read: the summary stays as it was
    assert "2 files: 1 indexed, 1 unchanged, 0 skipped" in capsys.readouterr().out


def test_if_missing_re_reads_an_index_an_older_citecast_read(
    kb: Path,
    tmp_path: Path,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _ingest_with_older_reader(kb, tmp_path / "index.db", monkeypatch)
    # --if-missing adds nothing to an index that exists: it reads again the index's own files
    # (tests/core/test_cli_ingest_if_missing_upgrade.py: `make serve` and a user's index)
    (kb / "new.md").write_text("# New\n\nIbis news.\n", "utf-8")
    assert main(["--config", str(config), "ingest", str(kb), "--if-missing"]) == 0
    out = capsys.readouterr().out
    assert f"2 files: 2 indexed {REREAD}, 0 unchanged, 0 skipped, 0 removed" in out
    assert older_reader_files(tmp_path / "index.db") == (0, 2)
    # current now: the fast path `make serve` takes on every start
    assert main(["--config", str(config), "ingest", str(kb), "--if-missing"]) == 0
    assert capsys.readouterr().out.startswith(f"index {tmp_path / 'index.db'} exists (2 files")


def test_serve_warning_counts_the_files_an_older_citecast_read(
    kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = tmp_path / "index.db"
    assert older_reader_warning(index) is None  # no index: serve says so on its own
    _ingest_with_older_reader(kb, index, monkeypatch)
    (kb / "new.md").write_text("# New\n\nIbis news.\n", "utf-8")
    with monkeypatch.context() as older:
        older.setattr(ingest_module, "READER_VERSION", "10")
        ingest([kb], IndexSettings(path=str(index)))
    (kb / "ops.md").write_text("# Ops\n\nEgret sends are retried 6 times.\n", "utf-8")
    ingest([kb / "ops.md"], IndexSettings(path=str(index)))  # one file read by this citecast
    assert older_reader_warning(index) == (
        "2 of 3 indexed files were read by an older citecast, which reads some files "
        "differently: until they are read again, their audiences and links may be wrong (a "
        "file this citecast makes private may still be shown to everyone); run `citecast "
        f"ingest {kb}` to re-read them (unchanged files are skipped)"
    )
    ingest([kb], IndexSettings(path=str(index)))
    assert older_reader_warning(index) is None
