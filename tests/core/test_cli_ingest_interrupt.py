"""Ctrl-C during ``citecast ingest`` loses nothing and leaves no half-built index behind.

A new index (the first run, ``--rebuild``) is written beside the old one and moved into place
only when complete; Ctrl-C stops before the next file, so every file in the index is whole.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge import KnowledgeIndex
from tests.core.ingest_signals import FILES, config, docs, leftovers, signal_after

__all__ = ["config", "docs"]  # fixtures


def indexed_files(tmp_path: Path) -> int:
    index = KnowledgeIndex(tmp_path / "kb" / "index.db")
    try:
        return index.stats().files
    finally:
        index.close()


def test_an_interrupted_rebuild_keeps_the_old_index(
    tmp_path: Path,
    docs: Path,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    capsys.readouterr()
    signal_after(monkeypatch, 5, [signal.SIGINT])
    assert main(["--config", str(config), "ingest", "--rebuild", str(docs)]) == 130
    assert indexed_files(tmp_path) == FILES  # it used to hold the 5 files of the new run
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"citecast ingest: interrupted after 5 of {FILES} files; "
        f"the index at {tmp_path / 'kb' / 'index.db'} is as it was\n"
    )
    assert leftovers(tmp_path) == []


def test_an_interrupted_first_ingest_writes_no_index_that_if_missing_would_trust(
    tmp_path: Path,
    docs: Path,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    signal_after(monkeypatch, 5, [signal.SIGINT])
    assert main(["--config", str(config), "ingest", str(docs), "--if-missing"]) == 130
    assert not (tmp_path / "kb" / "index.db").exists()
    assert capsys.readouterr().err == (
        f"citecast ingest: interrupted after 5 of {FILES} files; no index was written\n"
    )
    monkeypatch.undo()
    # so `make serve` (ingest --if-missing) builds the whole index next time
    assert main(["--config", str(config), "ingest", str(docs), "--if-missing"]) == 0
    assert f"{FILES} files: {FILES} indexed" in capsys.readouterr().out


def test_an_interrupted_update_keeps_the_files_it_finished(
    tmp_path: Path,
    docs: Path,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    for path in docs.iterdir():
        path.write_text(path.read_text("utf-8") + "\nThey eat fish.\n", encoding="utf-8")
    capsys.readouterr()
    signal_after(monkeypatch, 5, [signal.SIGINT])
    assert main(["--config", str(config), "ingest", str(docs)]) == 130
    assert capsys.readouterr().err == (
        f"citecast ingest: interrupted after 5 of {FILES} files; the files read so far are in "
        "the index; run the command again to finish\n"
    )
    monkeypatch.undo()
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    out = capsys.readouterr().out
    assert f"{FILES} files: {FILES - 5} indexed, 5 unchanged" in out
    assert indexed_files(tmp_path) == FILES
