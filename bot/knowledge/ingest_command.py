"""The exact ``citecast ingest`` command that reads an index's folders again, for messages.

An index remembers every folder and file ingested into it (its ``roots`` table). A message
that asks for a re-read (``serve``'s start-up warning after an upgrade, the schema refusal,
the summary of a partial re-read) names them, so the operator can paste the command instead
of recalling which folders the index was built from: ``citecast ingest kb handbook.pdf``.
Only the outermost roots are named (``kb``, not ``kb/guides`` too, nor the files an
``--if-missing`` re-read recorded one by one), and only those that still exist (``citecast
ingest`` refuses a missing path). A root inside the working directory is named by its path
from there, as the user typed it; any other by its absolute path. Each is quoted for the shell.
"""

from __future__ import annotations

import shlex
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

from bot.knowledge.read_only import read_index

__all__ = ["index_roots", "ingest_command", "outermost", "roots_holding", "stored_roots"]


def stored_roots(conn: sqlite3.Connection) -> list[Path]:
    """The paths of the ``roots`` table (none when the index has no such table)."""
    try:
        rows = conn.execute("SELECT path FROM roots ORDER BY path").fetchall()
    except sqlite3.Error:
        return []
    return [Path(str(row[0])) for row in rows]


def index_roots(index_path: Path) -> list[Path]:
    """The roots of the index at ``index_path``, read-only (none when it cannot be read)."""
    return read_index(index_path, stored_roots, [])


def outermost(roots: Iterable[Path]) -> list[Path]:
    """The roots that exist and lie inside no other of them, in path order."""
    existing = sorted({root for root in roots if root.exists()})
    return [
        root
        for root in existing
        if not any(other != root and root.is_relative_to(other) for other in existing)
    ]


def roots_holding(roots: Iterable[Path], files: Iterable[Path]) -> list[Path]:
    """The outermost existing ``roots`` that hold at least one of ``files`` (a root holds a
    file inside it, or is that file)."""
    wanted = list(files)
    return [
        root
        for root in outermost(roots)
        if any(path == root or path.is_relative_to(root) for path in wanted)
    ]


def _shown(path: Path) -> str:
    try:
        here = Path.cwd().resolve()
    except OSError:  # the working directory was removed: only an absolute path works
        return str(path)
    if path == here:
        return "."
    if path.is_relative_to(here):
        return path.relative_to(here).as_posix()
    return str(path)


def ingest_command(
    roots: Sequence[Path], *, rebuild: bool = False, config: str | None = None
) -> str:
    """``citecast [--config FILE] ingest [--rebuild] ROOT...`` for ``roots``, quoted for the
    shell; ``PATH`` in place of the roots when there are none (they were moved or removed)."""
    words = ["citecast"]
    if config:
        words += ["--config", shlex.quote(config)]
    words.append("ingest")
    if rebuild:
        words.append("--rebuild")
    words += [shlex.quote(_shown(root)) for root in roots] or ["PATH..." if rebuild else "PATH"]
    return " ".join(words)
