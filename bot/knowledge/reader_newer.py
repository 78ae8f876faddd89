"""Refusing an index whose files a newer citecast's reader read, as after a downgrade.

Every fingerprint starts with the mark of the reader that read the file (``r18:``,
:func:`bot.knowledge.ingest_file.reader_mark`). A newer reader reads some files as narrower
than this one does (a front matter key in another case, an HTML meta tag, a symlink's
target's rules): an older citecast that served such an index, or re-read it with its first
``citecast ingest``, made those files public again without a word. So every open of the
index (``serve``, ``ask``, ``ingest``, ``ingest --if-missing``) refuses one holding a file a
newer reader read, along with the schema check (:func:`bot.knowledge.schema.check_schema`).

``ingest --rebuild`` is allowed: it builds a new file and never opens the old one for
writing, and it is the way out when there is neither a newer citecast nor a backup. It
keeps the audience the old index gave each file as that file's default (and every folder's
``--audience``), which its summary says (:mod:`bot.knowledge.ingest_audience`), but a file
this reader reads as public in its own words (front matter, a rule) is public again.
"""

from __future__ import annotations

import sqlite3

from bot.errors import KnowledgeIndexError


def this_reader() -> int:
    """The version of this citecast's reader (``READER_VERSION``)."""
    # imported here: ingest_file imports the writer, which imports the schema check that
    # imports this module; and read at each call, so a test can stand in another version
    from bot.knowledge import ingest_file

    return int(ingest_file.READER_VERSION)


def newest_reader(conn: sqlite3.Connection) -> int | None:
    """The newest reader version any fingerprint of the index on ``conn`` is marked with
    (None: no file is marked, as in an index written before marks, or an empty one)."""
    rows = conn.execute(
        "SELECT DISTINCT substr(fingerprint, 2, instr(fingerprint, ':') - 2) FROM files "
        "WHERE fingerprint GLOB 'r[0-9]*:*'"
    ).fetchall()
    versions = [int(str(row[0])) for row in rows if str(row[0]).isdigit()]
    return max(versions, default=None)


def newer_reader(conn: sqlite3.Connection) -> int | None:
    """The reader version of the index on ``conn`` when a newer citecast than this one read
    any of its files, else None; None too when its ``files`` table cannot be read (the schema
    check says why)."""
    try:
        newest = newest_reader(conn)
    except sqlite3.Error:
        return None
    this = this_reader()
    return newest if newest is not None and newest > this else None


def newer_reader_message(where: str, newer: int) -> str:
    """The one line refusing the index at ``where``, read by reader ``newer``."""
    return (
        f"{where} was read by a newer citecast (reader {newer}; this one is {this_reader()}): "
        "upgrade citecast, or restore the index you backed up before upgrading; do not "
        "rebuild it with this citecast, which may read private files as public"
    )


def refuse_newer_reader(conn: sqlite3.Connection, where: str) -> None:
    """Raise KnowledgeIndexError when a newer citecast read any file of the index on
    ``conn`` (``where``: how the message names it)."""
    newer = newer_reader(conn)
    if newer is not None:
        raise KnowledgeIndexError(newer_reader_message(where, newer))
