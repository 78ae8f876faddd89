"""Whether an index was read by an older citecast: checked by ``serve`` at start, by
``ingest --if-missing`` and after a partial re-read, from the stored fingerprints alone (no
file is read).

Every fingerprint starts with the mark of the reader that read the file
(:func:`bot.knowledge.ingest.reader_mark`); one without a mark was written before marks
existed, by an older reader. The messages name the command that re-reads those files: the
index's own folders (:mod:`bot.knowledge.ingest_command`), never a placeholder to fill in.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.knowledge.ingest import reader_mark
from bot.knowledge.ingest_command import ingest_command, roots_holding, stored_roots
from bot.knowledge.read_only import read_index
from bot.knowledge.reader_newer import newer_reader


@dataclass(frozen=True)
class ReaderAge:
    """What an index's fingerprints say: its files an older reader read, how many files it
    holds, and its roots (the folders and files ingested into it)."""

    older: tuple[Path, ...] = ()
    files: int = 0
    roots: tuple[Path, ...] = ()

    def command(self, config: str | None = None) -> str:
        """The ``citecast ingest`` command that re-reads :attr:`older`."""
        return ingest_command(roots_holding(self.roots, self.older), config=config)


def reader_age(index_path: Path) -> ReaderAge:
    """The :class:`ReaderAge` of the index at ``index_path``, read-only; empty when there is
    no index or it cannot be read (a damaged one, another program's file: other checks say
    so)."""
    return read_index(index_path, _age, ReaderAge())


def _age(conn: sqlite3.Connection) -> ReaderAge:
    if newer_reader(conn) is not None:
        return ReaderAge()  # refused outright (reader_newer): no re-read to advise
    mark = reader_mark()
    rows = conn.execute("SELECT path, fingerprint FROM files").fetchall()
    older = tuple(Path(str(path)) for path, print_ in rows if not str(print_).startswith(mark))
    return ReaderAge(older, len(rows), tuple(stored_roots(conn)))


def older_reader_files(index_path: Path) -> tuple[int, int]:
    """``(older, files)``: how many of the index's files were read by another citecast's
    reader (which reads some files differently: ``citecast ingest`` re-reads them), and how
    many files it holds; ``(0, 0)`` when there is no index or it cannot be read."""
    age = reader_age(index_path)
    return len(age.older), age.files


def older_reader_warning(index_path: Path, config: str | None = None) -> str | None:
    """The warning ``serve`` logs at start when files of the index were read by an older
    citecast, or None. Until they are read again, answers quote what its reader made of
    them, with the audience and link it gave them: a file the new reader makes private is
    still shown to everyone, so the warning says that this matters now. ``config``: the
    ``--config`` serve was given, repeated in the command (without it, the command would
    ingest into another index)."""
    age = reader_age(index_path)
    if not age.older:
        return None
    return (
        f"{len(age.older)} of {age.files} indexed files were read by an older citecast, which "
        "reads some files differently: until they are read again, their audiences and links "
        "may be wrong (a file this citecast makes private may still be shown to everyone); "
        f"run `{age.command(config)}` to re-read them (unchanged files are skipped)"
    )


def older_files_left(index_path: Path, reread: int, config: str | None = None) -> str | None:
    """The ingest summary's line on the files an older citecast read that a run left as they
    were (``citecast ingest kb/guides`` when the rest of ``kb`` is old too), or None.
    ``reread``: how many this run read again (then the rest are "more")."""
    age = reader_age(index_path)
    if not age.older:
        return None
    count = len(age.older)
    more = " more" if reread else ""
    files = f"{count}{more} indexed file{'' if count == 1 else 's'}"
    verb = "was" if count == 1 else "were"
    return f"{files} {verb} read by an older citecast: run `{age.command(config)}`"
