"""Giving back the space an ingest run freed (used by :func:`bot.knowledge.ingest.ingest`).

SQLite keeps the pages of deleted rows in the file for later writes: a 20 MB file removed from
the knowledge base left a 30 MB index at 30 MB for ever. After a run whose removals (or
replaced files) left at least a quarter of the index free, and at least
:data:`MIN_FREE_BYTES`, the index is rebuilt in place with ``VACUUM``. That is one transaction:
a server reading the index meanwhile sees it whole, before or after, and a VACUUM that fails
(a full disk, a reader holding the log) leaves the index as the run committed it, only larger.
A smaller share is left for later writes to reuse: VACUUM rewrites the whole file.

Free pages are not all a run leaves behind. FTS5 forgets a deleted chunk's words by writing
delete markers beside the old entries, and drops both only when it merges the segments that
hold them: re-ingesting every changed file of a 40 MB index grew it by 10 MB a run, with no
free page to show for it. So a run that replaced or removed chunks first merges the search
index into one segment (:func:`merge_search_index`), freeing the pages of what it dropped.
The merge copies the live entries too, leaving their old pages free: the share of those that
belong to chunks the run did not replace is not counted (the next run's merge writes into
those pages), or every run that changed one file would rewrite the whole file.

With another ingest committing while the run went on, only the pages the run's own
transactions freed count, and only they are said to be given back (:mod:`bot.knowledge.run_free`):
a small run finishing beside a large one no longer compacts the large one's space as its own.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from bot.knowledge.run_free import RunFreePages

FREE_SHARE: Final = 0.25
"""The share of the index's pages that must be free after a run for it to be compacted."""
MIN_FREE_BYTES: Final = 1_000_000
"""Less free space than this is not worth rewriting the file for."""

# ``chunks_fts`` is the index's only FTS5 table (record tables are searched in memory);
# ``chunks_fts_data`` is the shadow table holding its segments.


def free_bytes(conn: sqlite3.Connection) -> tuple[int, int]:
    """``(free, total)``: bytes of the index's free pages, and of all its pages."""
    size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
    free = int(conn.execute("PRAGMA freelist_count").fetchone()[0])
    return free * size, pages * size


def search_index_bytes(conn: sqlite3.Connection) -> int:
    """Bytes of the search index's segments (``length`` reads no blob: a 40 MB index takes
    about 20 ms)."""
    row = conn.execute("SELECT coalesce(sum(length(block)), 0) FROM chunks_fts_data").fetchone()
    return int(row[0])


def merge_search_index(conn: sqlite3.Connection, run: RunFreePages) -> int | None:
    """Merge the search index behind ``conn`` (outside any transaction) into one segment,
    dropping deleted chunks' entries and delete markers; returns the bytes of segments that
    dropped, None when the merge failed.

    One write transaction of the run's (``BEGIN IMMEDIATE``, as every one of the writer's,
    counted in ``run``): another ingest waits for it, a reader sees the index before or
    after. FTS5's ``optimize`` took 0.7 s on a 30,000-chunk index that four runs had replaced
    whole, 0.2 s when one file had changed. Ctrl-C during it rolls the merge back and stops
    the run there, the files done so far committed.
    """
    try:
        run.begin()
        before = search_index_bytes(conn)
        conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')")
        merged = search_index_bytes(conn)
        run.end()
        conn.commit()
    except sqlite3.Error:
        _roll_back(conn)
        return None  # the run's rows are committed: a larger file is all it costs
    except BaseException:
        _roll_back(conn)
        raise
    return max(before - merged, 0)


def _roll_back(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.rollback()


def compact(conn: sqlite3.Connection, run: RunFreePages, *, dropped_chunks: int = 0) -> int:
    """VACUUM the index behind ``conn`` (outside any transaction) when enough of it is free
    (see the module docstring); returns the bytes this run freed that were given back (0: not
    needed, or it failed).

    ``run``: the pages the run's own transactions freed; when another ingest committed
    meanwhile, only those count (:mod:`bot.knowledge.run_free`). ``dropped_chunks``: how many
    chunks the run deleted (replaced or removed files); any, and the search index is merged
    first, the pages its copy of the chunks the run kept left free not counted.
    """
    merged = merge_search_index(conn, run) if dropped_chunks > 0 else None
    free, total = free_bytes(conn)
    own = run.freed_bytes()
    if own is not None:
        free = min(free, own)
    if merged is not None:
        free = max(free - _copied_bytes(conn, dropped_chunks), 0)
    if free < MIN_FREE_BYTES or free < FREE_SHARE * total:
        return 0
    try:
        conn.execute("VACUUM")
    except sqlite3.Error:
        return 0  # the run's rows are committed: a larger file is all it costs
    given = max(total - free_bytes(conn)[1], 0)
    return given if own is None else min(given, own)


def _copied_bytes(conn: sqlite3.Connection, dropped_chunks: int) -> int:
    """Bytes of the merged search index that only moved: the entries of chunks the run kept.

    The replaced chunks' old entries were dead before the merge; the kept chunks' (a run that
    changed one file of 3,000: nearly all of it) left as many bytes of pages free.
    """
    kept = int(conn.execute("SELECT count(*) FROM chunks").fetchone()[0])
    kept_share = max(kept - dropped_chunks, 0) / kept if kept else 0.0
    return int(search_index_bytes(conn) * kept_share)
