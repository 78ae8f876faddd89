"""Reading an SQLite file without ever writing it: the knowledge index (by the checks that run
before ingestion, ``serve`` and ``eval``) and the record tables named in config.

SQLite's ``mode=ro`` opens no missing file (so none is created), switches no journal and
writes no ``-wal``, whatever the file's rights: a look at the index never changes it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

_T = TypeVar("_T")


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only (``mode=ro``) connection to the database at ``path``; raises
    sqlite3.Error when it cannot be opened (a missing file among others). The caller closes
    it."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def read_index(path: Path, query: Callable[[sqlite3.Connection], _T], default: _T) -> _T:
    """What ``query`` returns from a read-only connection to the index at ``path``, which is
    closed after; ``default`` when there is no file there, or SQLite cannot open or read it
    (a damaged index, another program's file: the checks and runs that follow say so).

    ``query`` must return data it has read in full (a list, not a cursor): the connection is
    closed when it returns.
    """
    if not path.is_file():
        return default
    try:
        conn = connect_read_only(path)
    except sqlite3.Error:
        return default
    try:
        return query(conn)
    except sqlite3.Error:
        return default
    finally:
        conn.close()
