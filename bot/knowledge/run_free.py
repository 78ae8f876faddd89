"""The free pages one ingest run left in the index, told apart from another run's.

Two ``citecast ingest`` runs into one index take turns batch by batch (``BEGIN IMMEDIATE``), so
the free pages a run finds at its end may be the other's: a small run finishing beside a large
one said "index compacted: 18,996 KB that this run freed" of space the large run had freed.
Inside its own transactions a run is the only writer, so the free pages each one added (what
it deleted, less what it wrote) are its own, and their sum is what the run freed. SQLite's
``data_version`` tells whether any other connection committed while the run went on; when none
did, every free page in the file counts, as it always did (an earlier run's too).
"""

from __future__ import annotations

import sqlite3


def _free_pages(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA freelist_count").fetchone()[0])


def _data_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA data_version").fetchone()[0])


class RunFreePages:
    """Counts the free pages one connection's transactions added to the index.

    :meth:`begin` starts each of the run's transactions and :meth:`end` is called just before
    it commits: between the two the run holds the write lock.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._version = _data_version(conn)  # unchanged by this connection's own commits
        self._at_begin: int | None = None
        self._pages = 0

    def begin(self) -> None:
        """Start a transaction (``BEGIN IMMEDIATE``: the write lock) unless one is open."""
        if not self._conn.in_transaction:
            self._conn.execute("BEGIN IMMEDIATE")
            self._at_begin = _free_pages(self._conn)

    def end(self) -> None:
        """Count what the open transaction freed; call before it commits."""
        if self._at_begin is not None and self._conn.in_transaction:
            self._pages += _free_pages(self._conn) - self._at_begin
        self._at_begin = None

    def freed_bytes(self) -> int | None:
        """Bytes of free pages this run's transactions added (never below 0), or None when no
        other connection committed since the run began: then all free pages are the run's to
        count."""
        if _data_version(self._conn) == self._version:
            return None
        size = int(self._conn.execute("PRAGMA page_size").fetchone()[0])
        return max(self._pages, 0) * size
