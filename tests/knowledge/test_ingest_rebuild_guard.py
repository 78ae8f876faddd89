"""``--rebuild`` never deletes another program's file that ``index.path`` names by mistake (the
store, a document), while an empty file or a damaged index is still rebuilt."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.errors import KnowledgeIndexError
from bot.knowledge import ingest


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nIbis guide.\n", encoding="utf-8")
    return docs


def _store(path: Path) -> None:
    """A database like citecast's store: conversations and an outbox, no index table."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE turns (id INTEGER PRIMARY KEY, question TEXT)")
    conn.execute("CREATE TABLE outbox (id INTEGER PRIMARY KEY, payload TEXT)")
    conn.execute("INSERT INTO turns(question) VALUES ('What is an ibis?')")
    conn.commit()
    conn.close()


def _turns(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [str(row[0]) for row in conn.execute("SELECT question FROM turns")]
    finally:
        conn.close()


def test_rebuild_refuses_to_replace_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "citecast.db"
    _store(store)
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {store}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", "--rebuild", str(_docs(tmp_path))]) == 2
    assert capsys.readouterr().err == (
        f"citecast ingest: {store} is not a citecast index (tables: outbox, turns); --rebuild "
        "does not replace it: set index.path to a new file, or remove this one yourself\n"
    )
    assert _turns(store) == ["What is an ibis?"]


def test_rebuild_refuses_to_replace_a_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = _docs(tmp_path)
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {docs / 'guide.md'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", "--rebuild", str(docs)]) == 2
    assert "(not an SQLite database); --rebuild does not replace it" in capsys.readouterr().err
    assert (docs / "guide.md").read_text(encoding="utf-8") == "# Guide\n\nIbis guide.\n"


def test_the_library_rebuild_refuses_too(tmp_path: Path) -> None:
    store = tmp_path / "citecast.db"
    _store(store)
    with pytest.raises(KnowledgeIndexError, match=r"\(tables: outbox, turns\); --rebuild"):
        ingest([_docs(tmp_path)], IndexSettings(path=str(store)), rebuild=True)
    assert _turns(store) == ["What is an ibis?"]


@pytest.mark.parametrize("damage", ["empty file", "no tables", "tables dropped"])
def test_an_empty_file_or_a_damaged_index_is_still_rebuilt(
    tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = _docs(tmp_path)
    index = tmp_path / "index.db"
    if damage == "empty file":
        index.write_bytes(b"")
    elif damage == "no tables":
        conn = sqlite3.connect(index)
        conn.executescript("CREATE TABLE t (x); DROP TABLE t;")  # a database, now empty
        conn.close()
        assert index.read_bytes().startswith(b"SQLite format 3")
    else:
        ingest([docs], IndexSettings(path=str(index)))
        conn = sqlite3.connect(index)
        conn.execute("DROP TABLE chunks_fts")
        conn.execute("DROP TABLE chunks")
        conn.commit()
        conn.close()
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {index}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", "--rebuild", str(docs)]) == 0
    assert "1 file: 1 indexed" in capsys.readouterr().out
