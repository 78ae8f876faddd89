"""A damaged knowledge index, told apart from other read failures and named with its cure.

A page of the index that SQLite cannot read (a disk fault, a file cut short or written over)
fails only the reads that reach that page: ``citecast ingest`` of unchanged files, which reads
only the ``files`` table, went on saying all was well while every search failed with
"database disk image is malformed". Each such error is SQLite's ``SQLITE_CORRUPT`` (FTS5 says
"vtable constructor failed" for it): :func:`read_error` turns it into one KnowledgeIndexError
naming the exact ``citecast ingest --rebuild`` command, and any other sqlite3 error into one
naming the file and SQLite's reason. ("file is not a database" is not damage: that is another
program's file, which a rebuild refuses to replace.)

:func:`refuse_damaged` runs SQLite's ``PRAGMA quick_check`` when ``citecast ingest`` opens an
existing index: it reads every page once, about 40 ms for a 50 MB index in the page cache
(0.17 s from disk), beside the 0.6 s the same run takes to find its 980 files unchanged. A
search never runs it (its time grows with the index): the error of the read that meets the
damage says the same.
"""

from __future__ import annotations

import sqlite3

from bot.errors import KnowledgeIndexError
from bot.knowledge.schema import REBUILD_HINT, rebuild_hint

# SQLite's primary result code for a damaged file (its extended codes share the prefix)
_DAMAGE_CODE = "SQLITE_CORRUPT"


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says the index file is damaged (not locked, unwritable or missing)."""
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    return name.startswith(_DAMAGE_CODE) or "malformed" in str(exc)


def damaged(where: str, why: str, conn: sqlite3.Connection | None) -> KnowledgeIndexError:
    """``where is damaged (why); rebuild it: `citecast ingest --rebuild ROOT...``` with the
    folders and files the index holds, as far as its ``roots`` table can still be read (on
    ``conn``; None when the index could not even be opened)."""
    hint = REBUILD_HINT if conn is None else rebuild_hint(conn)
    return KnowledgeIndexError(f"{where} is damaged ({why}); {hint}")


def read_error(
    where: str, exc: sqlite3.Error, conn: sqlite3.Connection, doing: str = "read"
) -> KnowledgeIndexError:
    """The KnowledgeIndexError for ``exc``, met on ``conn`` while doing ``doing`` (``read``,
    ``search``): :func:`damaged` for a damaged file, else ``cannot read where: reason``."""
    if is_damage(exc):
        return damaged(where, str(exc), conn)
    return KnowledgeIndexError(f"cannot {doing} {where}: {exc}")


def refuse_damaged(conn: sqlite3.Connection, where: str) -> None:
    """Raise :func:`damaged` when ``PRAGMA quick_check`` finds a page of ``conn``'s database
    that cannot be read, naming the first problem it found."""
    try:
        found = [str(row[0]) for row in conn.execute("PRAGMA quick_check(1)").fetchall()]
    except sqlite3.DatabaseError as exc:
        # the schema page itself (the check cannot even start) or a damaged header
        if is_damage(exc):
            raise damaged(where, str(exc), conn) from None
        raise
    if found == ["ok"]:
        return
    # "*** in database main ***\nPage 8: btreeInitPage() returns error code 11"
    lines = [line for row in found for line in row.splitlines() if not line.startswith("***")]
    raise damaged(where, f"quick_check: {lines[0] if lines else 'failed'}", conn)


__all__ = ["damaged", "is_damage", "read_error", "refuse_damaged"]
