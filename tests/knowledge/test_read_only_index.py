"""The one read-only look at an SQLite file: what it returns, and that it never writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.knowledge.read_only import connect_read_only, read_index


def _names(conn: sqlite3.Connection) -> list[str]:
    return [str(row[0]) for row in conn.execute("SELECT name FROM t ORDER BY name")]


def _database(path: Path) -> Path:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE t (name TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [("b",), ("a",)])
    conn.close()
    return path


def test_the_query_reads_the_file(tmp_path: Path) -> None:
    assert read_index(_database(tmp_path / "index.db"), _names, ["default"]) == ["a", "b"]


def test_no_file_gives_the_default_and_creates_none(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    assert read_index(missing, _names, ["default"]) == ["default"]
    assert not missing.exists()
    with pytest.raises(sqlite3.Error):
        connect_read_only(missing)
    assert not missing.exists()


def test_a_folder_gives_the_default(tmp_path: Path) -> None:
    assert read_index(tmp_path, _names, ["default"]) == ["default"]


def test_a_file_that_is_no_database_gives_the_default(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not a database, only words\n" * 50, encoding="utf-8")
    assert read_index(text, _names, ["default"]) == ["default"]
    assert text.read_text(encoding="utf-8").startswith("not a database")


def test_a_missing_table_gives_the_default(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE other (x)")
    conn.close()
    assert read_index(path, _names, ["default"]) == ["default"]


def test_a_write_is_refused_and_the_file_is_unchanged(tmp_path: Path) -> None:
    path = _database(tmp_path / "index.db")
    before = path.read_bytes()

    def write(conn: sqlite3.Connection) -> str:
        conn.execute("INSERT INTO t VALUES ('c')")
        conn.commit()
        return "written"

    assert read_index(path, write, "refused") == "refused"
    assert path.read_bytes() == before
    assert read_index(path, _names, ["default"]) == ["a", "b"]


def test_the_connection_is_closed_after_the_query(tmp_path: Path) -> None:
    seen: list[sqlite3.Connection] = []

    def keep(conn: sqlite3.Connection) -> int:
        seen.append(conn)
        return 1

    assert read_index(_database(tmp_path / "index.db"), keep, 0) == 1
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        seen[0].execute("SELECT 1")


def test_other_errors_of_the_query_are_not_swallowed(tmp_path: Path) -> None:
    def broken(conn: sqlite3.Connection) -> int:
        raise ValueError("a bug of the caller")

    with pytest.raises(ValueError, match="a bug of the caller"):
        read_index(_database(tmp_path / "index.db"), broken, 0)
