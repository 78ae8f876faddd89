"""Files whose audience an ingest run narrowed: shown to more people before it than after.

After an upgrade, a file an older citecast read keeps the audience that reader gave it until
it is read again (``serve`` warns of it at start). When the new reader gives it a narrower one
(audience rules that now match where they did not: ``public`` becomes ``staff``), everyone the
old audience allowed could read a file they may not. So every run compares the audiences of
the index it wrote with those the index had before it (the one a ``--rebuild`` replaces too,
:func:`bot.knowledge.ingest_audience.read_kept`), and the summary names the files that
narrowed, for whatever reason (a re-read, a changed rule, ``--audience``): the operator then
knows what was exposed until now.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.knowledge.read_only import read_index
from bot.knowledge.schema import audience_tuple

PUBLIC = "public"


@dataclass(frozen=True)
class Narrowed:
    """A file (``relpath``: as stored) whose audience went from ``before`` to the narrower
    ``after``."""

    relpath: str
    before: tuple[str, ...]
    after: tuple[str, ...]


def is_narrower(before: Sequence[str], after: Sequence[str]) -> bool:
    """True when someone ``before`` let read the file may not read it ``after``: public
    became a group, or a group was dropped (``staff`` becoming ``hr`` counts: staff lost it)."""
    if PUBLIC in after:
        return False
    if PUBLIC in before:
        return True
    return bool(set(before) - set(after))


def narrowed_since(index_path: Path, before: Mapping[str, tuple[str, ...]]) -> list[Narrowed]:
    """The files of the index at ``index_path`` whose audience is narrower than ``before``
    gave them (absolute path -> audience, as read before the run), in path order; none when
    the index cannot be read."""

    def query(conn: sqlite3.Connection) -> list[Narrowed]:
        found: list[Narrowed] = []
        for path, relpath, column in conn.execute(
            "SELECT f.path, f.relpath, "
            "(SELECT c.audience FROM chunks c WHERE c.file_id = f.id LIMIT 1) "
            "FROM files f ORDER BY f.path"
        ):
            earlier = before.get(str(path))
            after = audience_tuple(str(column or ""))
            if earlier is not None and after and is_narrower(earlier, after):
                found.append(Narrowed(str(relpath), earlier, after))
        return found

    return read_index(index_path, query, []) if before else []
