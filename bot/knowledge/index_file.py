"""What ``index.path`` holds before an ingest run writes it, and why it cannot be written.

A rebuild never deletes what is plainly another program's file (:func:`foreign_file`): an
``index.path`` pointed at the store by mistake must not cost its conversations and outbox. A
rebuild counts as removed what the old index held and the new one does not
(:func:`indexed_paths`). SQLite's "attempt to write a readonly database" names neither the file
nor the fix: :func:`unwritable` and :func:`folder_problem` do. Split from
:mod:`bot.knowledge.writer`, which writes the index.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot import writable_paths
from bot.errors import KnowledgeIndexError
from bot.knowledge.read_only import read_index

# The tables of a citecast index; a database with none of them is some other program's.
_INDEX_TABLES = frozenset(("meta", "roots", "files", "chunks", "chunks_fts"))
_SQLITE_HEADER = b"SQLite format 3\x00"


def foreign_file(path: Path) -> str | None:
    """What ``path`` holds when it is plainly not a citecast index, so a rebuild must not
    delete it: "a folder", "not an SQLite database" or "tables: …" of a database that has
    none of an index's tables. None when there is nothing to lose: no file, an empty one, or
    an index (old, damaged or unreadable: a rebuild is its cure)."""
    if path.is_dir():
        return "a folder"
    try:
        with path.open("rb") as file:
            head = file.read(len(_SQLITE_HEADER))
    except OSError:
        return None  # missing, or unreadable: opening it for the rebuild says why
    if not head:
        return None
    if head != _SQLITE_HEADER:
        return "not an SQLite database"
    rows = read_index(path, _table_rows, None)
    if rows is None:
        return None
    tables = sorted(str(name) for (name,) in rows if not str(name).startswith("sqlite_"))
    if tables and not _INDEX_TABLES.intersection(tables):
        return f"tables: {', '.join(tables)}"
    return None


def indexed_paths(path: Path) -> frozenset[str] | None:
    """The paths of the files indexed in the index at ``path``, read-only; None when there is
    none or it cannot be read (another program's file, a damaged one).

    A rebuild starts from an empty index: what it dropped is what the old one held and the
    new one does not, which only the old one's list can tell.
    """
    return read_index(path, _file_paths, None)


def _table_rows(conn: sqlite3.Connection) -> list[tuple[object, ...]] | None:
    return conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()


def _file_paths(conn: sqlite3.Connection) -> frozenset[str] | None:
    return frozenset(str(row[0]) for row in conn.execute("SELECT path FROM files"))


def refuse_foreign(path: Path) -> None:
    """Raise KnowledgeIndexError when a rebuild would replace another program's file."""
    found = foreign_file(path)
    if found is not None:
        raise KnowledgeIndexError(
            f"{path} is not a citecast index ({found}); --rebuild does not replace it: "
            "set index.path to a new file, or remove this one yourself"
        )


def unwritable(path: Path) -> str:
    """Why this user cannot write the index at ``path`` (:func:`bot.writable_paths.unwritable`
    for ``index.path``), or "" when the file and its folder look writable."""
    return writable_paths.unwritable(path, "index.path")


def folder_problem(path: Path, exc: OSError) -> str:
    """Why the folder of the index at ``path`` cannot be made, in words: the reason
    :func:`unwritable` finds (with its fix), else the system's, naming the folder once."""
    why = unwritable(path)
    if why:
        return why.removeprefix("; ")
    reason = exc.strerror or str(exc)
    folder = exc.filename or path.parent
    return f"cannot create the folder {folder}: {reason[:1].lower()}{reason[1:]}"
