"""Whether an index was read by an older citecast: checked by ``serve`` at start and by
``ingest --if-missing``, from the stored fingerprints alone (no file is read).

Every fingerprint starts with the mark of the reader that read the file
(:func:`bot.knowledge.ingest.reader_mark`); one without a mark was written before marks
existed, by an older reader.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.knowledge.ingest import reader_mark
from bot.knowledge.read_only import read_index


def indexed_fingerprints(index_path: Path) -> list[str]:
    """The fingerprints of the index's files, read-only; empty when there is no index or it
    cannot be read (a damaged one, another program's file: other checks say so)."""
    return read_index(index_path, _fingerprints, [])


def _fingerprints(conn: sqlite3.Connection) -> list[str]:
    return [str(row[0]) for row in conn.execute("SELECT fingerprint FROM files")]


def older_reader_files(index_path: Path) -> tuple[int, int]:
    """``(older, files)``: how many of the index's files were read by another citecast's
    reader (which reads some files differently: ``citecast ingest`` re-reads them), and how
    many files it holds; ``(0, 0)`` when there is no index or it cannot be read."""
    found = indexed_fingerprints(index_path)
    mark = reader_mark()
    return sum(not fingerprint.startswith(mark) for fingerprint in found), len(found)


def older_reader_warning(index_path: Path) -> str | None:
    """The warning ``serve`` logs at start when files of the index were read by an older
    citecast (answers quote what its reader made of them), or None."""
    older, files = older_reader_files(index_path)
    if not older:
        return None
    return (
        f"{older} of {files} indexed files were read by an older citecast, which reads some "
        "files differently; run `citecast ingest PATH` to re-read them (unchanged files are "
        "skipped)"
    )
