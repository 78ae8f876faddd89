"""An index with a page SQLite cannot read is named as damaged in one line, with the exact
``citecast ingest --rebuild`` command: by ``citecast ask`` (no traceback), by every read of
KnowledgeIndex, and by ``citecast ingest``, which used to find every file unchanged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.errors import KnowledgeIndexError
from bot.knowledge.index import KnowledgeIndex

# the tables whose first page is written over: the one every search reads first (meta, for
# the cache key), the two it reads next, and the FTS5 tables behind the full-text search
DAMAGED_TABLES = ("meta", "files", "chunks", "chunks_fts_data", "chunks_fts_idx")


def _damage_page(index: Path, table: str) -> None:
    with sqlite3.connect(index) as conn:
        query = "SELECT rootpage FROM sqlite_master WHERE name = ?"
        root = conn.execute(query, (table,)).fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with index.open("r+b") as raw:
        raw.seek((root - 1) * size)
        raw.write(b"\xff" * size)


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An index of ``docs`` at ``idx.db`` built by ``citecast ingest``; the config's path."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    for n in range(1, 31):
        text = f"# Retries {n}\n\nWe retry {n} times before the upstream is marked down.\n"
        (tmp_path / "docs" / f"a{n}.md").write_text(text, encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text("index:\n  path: idx.db\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", "docs"]) == 0
    return config


def test_ask_on_a_damaged_meta_page_is_one_line(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _damage_page(built.parent / "idx.db", "meta")
    capsys.readouterr()
    status = main(["--config", str(built), "ask", "How often do we retry?"])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("citecast ask: ") and err.count("\n") == 1
    assert "idx.db is damaged (database disk image is malformed)" in err
    assert f"rebuild it: `citecast --config {built} ingest --rebuild docs`" in err


@pytest.mark.parametrize("table", DAMAGED_TABLES)
def test_ingest_of_unchanged_files_refuses_a_damaged_index(
    built: Path, table: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _damage_page(built.parent / "idx.db", table)
    capsys.readouterr()
    status = main(["--config", str(built), "ingest", "docs"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"citecast ingest: {built.parent / 'idx.db'} is damaged (quick_check: ")
    assert err.endswith(f"rebuild it: `citecast --config {built} ingest --rebuild docs`\n")


def test_the_rebuild_it_names_cures_the_damage(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _damage_page(built.parent / "idx.db", "chunks_fts_idx")
    assert main(["--config", str(built), "ingest", "--rebuild", "docs"]) == 0
    capsys.readouterr()
    assert main(["--config", str(built), "ask", "How often do we retry?"]) == 0
    assert "We retry" in capsys.readouterr().out


@pytest.mark.parametrize("table", DAMAGED_TABLES)
def test_every_read_of_a_damaged_index_is_a_knowledge_index_error(built: Path, table: str) -> None:
    index_path = built.parent / "idx.db"
    _damage_page(index_path, table)
    index = KnowledgeIndex(index_path)
    docs = (built.parent / "docs").resolve()
    reads = {
        "version": index.version,
        "search": lambda: index.search("retry upstream"),
        "source": lambda: index.source("docs/a1.md#1"),
        "file_source": lambda: index.file_source(docs / "a1.md"),
        "has_file": lambda: index.has_file(docs / "a1.md"),
        "stats": index.stats,
    }
    failed: dict[str, str] = {}
    for name, read in reads.items():
        try:
            read()
        except KnowledgeIndexError as exc:
            failed[name] = str(exc)
    index.close()
    # each damaged table fails some reads (those reaching its page), every one of them alike
    assert failed
    for message in failed.values():
        assert message.startswith(f"{index_path} is damaged (")
        assert message.endswith("rebuild it: `citecast ingest --rebuild docs`")


def test_a_damaged_schema_page_is_named_damaged_by_ask_and_ingest(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = built.parent / "idx.db"
    with index.open("r+b") as raw:  # the table list, after the file's 100-byte header
        raw.seek(100)
        raw.write(b"\xff" * 3996)
    capsys.readouterr()
    # no table can be read: not even the folders, so the command names PATH for them
    rebuild = f"rebuild it: `citecast --config {built} ingest --rebuild PATH...`"
    for command in ("ingest", "ask"):
        words = ["ingest", "docs"] if command == "ingest" else ["ask", "How often?"]
        assert main(["--config", str(built), *words]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert err.startswith(
            f"citecast {command}: {index} is damaged (database disk image is malformed); "
        )
        assert rebuild in err
