"""Giving back the space an ingest run freed (used by :func:`bot.knowledge.ingest.ingest`).

SQLite keeps the pages of deleted rows in the file for later writes: a 20 MB file removed from
the knowledge base left a 30 MB index at 30 MB for ever. After a run whose removals (or
replaced files) left at least a quarter of the index free, and at least
:data:`MIN_FREE_BYTES`, the index is rebuilt in place with ``VACUUM``. That is one transaction:
a server reading the index meanwhile sees it whole, before or after, and a VACUUM that fails
(a full disk, a reader holding the log) leaves the index as the run committed it, only larger.
A smaller share is left for later writes to reuse: VACUUM rewrites the whole file.
"""

from __future__ import annotations

import sqlite3
from typing import Final

FREE_SHARE: Final = 0.25
"""The share of the index's pages that must be free after a run for it to be compacted."""
MIN_FREE_BYTES: Final = 1_000_000
"""Less free space than this is not worth rewriting the file for."""


def free_bytes(conn: sqlite3.Connection) -> tuple[int, int]:
    """``(free, total)``: bytes of the index's free pages, and of all its pages."""
    size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
    free = int(conn.execute("PRAGMA freelist_count").fetchone()[0])
    return free * size, pages * size


def compact(conn: sqlite3.Connection) -> int:
    """VACUUM the index behind ``conn`` (outside any transaction) when enough of it is free
    (see the module docstring); returns the bytes given back (0: not needed, or it failed)."""
    free, total = free_bytes(conn)
    if free < MIN_FREE_BYTES or free < FREE_SHARE * total:
        return 0
    try:
        conn.execute("VACUUM")
    except sqlite3.Error:
        return 0  # the run's rows are committed: a larger file is all it costs
    return max(total - free_bytes(conn)[1], 0)
