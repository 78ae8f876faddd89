"""Files an ingest run indexed under a wider audience than the same content had a moment before,
under a path that is gone now: a kept-private folder renamed or moved.

A run without ``--audience`` gives a file the ``--audience`` remembered for the folder holding
it (:mod:`bot.knowledge.ingest_audience`), by that folder's absolute path. Once the folder is
renamed (``mv kb/internal kb/private``), or the whole knowledge base moved with its index (a
new checkout, another volume mount), its files are new files to the index: the next ``citecast
ingest kb`` indexes them as public, and removes the old paths. Moving a file from ``internal/``
to ``public/`` is also how one publishes it, so the audience is not kept; but the run says so.

Before the run, the restricted files of the index whose path is no longer a file (this run
removes them) are read back: their size and the text of their passages. After it, a file the
index did not hold before with the same size and the same passages, and an audience someone
the old one left out may read, is named in the summary (``note: 1 file is now wider than
before``), with its old path.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.knowledge.ingest_narrowed import PUBLIC, is_narrower
from bot.knowledge.read_only import read_index
from bot.knowledge.schema import audience_tuple


@dataclass(frozen=True)
class Gone:
    """A restricted file of the index whose path no longer holds a file: how the index names
    it (``relpath``), its ``audience``, its size and a digest of its passages' text."""

    relpath: str
    audience: tuple[str, ...]
    size: int
    digest: str


@dataclass(frozen=True)
class Widened:
    """A file (``relpath``: as stored) indexed with ``after``, wider than the ``before`` its
    same content had under the path that is gone (``was``: that file's relpath)."""

    relpath: str
    was: str
    before: tuple[str, ...]
    after: tuple[str, ...]


def _digest(conn: sqlite3.Connection, file_id: int) -> str:
    """A digest of the text of the file's passages, in order: equal for the same bytes read
    by the same reader with the same chunk settings."""
    digest = hashlib.sha256()
    for (text,) in conn.execute(
        "SELECT text FROM chunks WHERE file_id = ? ORDER BY chunk", (file_id,)
    ):
        digest.update(str(text).encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def gone_restricted(index_path: Path, audiences: Mapping[str, tuple[str, ...]]) -> list[Gone]:
    """The files ``audiences`` (absolute path -> stored audience, as read before the run) keeps
    from the public whose path is no longer a file, read from the index at ``index_path``
    before the run removes them; none when it cannot be read."""
    missing = [
        path
        for path, groups in audiences.items()
        if PUBLIC not in groups and not os.path.isfile(path)
    ]

    def query(conn: sqlite3.Connection) -> list[Gone]:
        found: list[Gone] = []
        for path in missing:
            row = conn.execute(
                "SELECT id, relpath, size FROM files WHERE path = ?", (path,)
            ).fetchone()
            if row is not None:
                file_id, relpath, size = int(row[0]), str(row[1]), int(row[2])
                digest = _digest(conn, file_id)
                found.append(Gone(relpath, audiences[path], size, digest))
        return found

    return read_index(index_path, query, []) if missing else []


def widened_since(
    index_path: Path, gone: Sequence[Gone], before: Mapping[str, object]
) -> list[Widened]:
    """The files of the index at ``index_path`` that it did not hold ``before`` (absolute
    paths) whose size and passages are a ``gone`` file's, under an audience wider than that
    file's, in path order; none when the index cannot be read."""
    by_size: dict[int, list[Gone]] = {}
    for old in gone:
        by_size.setdefault(old.size, []).append(old)

    def query(conn: sqlite3.Connection) -> list[Widened]:
        found: list[Widened] = []
        for file_id, path, relpath, size, column in conn.execute(
            "SELECT f.id, f.path, f.relpath, f.size, "
            "(SELECT c.audience FROM chunks c WHERE c.file_id = f.id LIMIT 1) "
            "FROM files f ORDER BY f.path"
        ).fetchall():
            olds = by_size.get(int(size))
            after = audience_tuple(str(column or ""))
            if not olds or str(path) in before or not after:
                continue
            digest = _digest(conn, int(file_id))
            for old in olds:
                if old.digest == digest and is_narrower(after, old.audience):
                    found.append(Widened(str(relpath), old.relpath, old.audience, after))
                    break
        return found

    return read_index(index_path, query, []) if gone else []
