"""Why ``citecast eval``'s gold ids are not in the index, when the reason is the folder name.

A source id starts with the folder given to ``citecast ingest`` (``kb/getting-started.md#2``
after ``citecast ingest kb/``): the shipped ``examples/eval/questions.jsonl`` names
``examples/…`` ids, and run against an index ingested from ``kb/`` every one of them was
reported as "removed, or renumbered by a re-ingest?", which sent people looking for the wrong
cause.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from bot.evaluation.dataset import EvalCase
from bot.knowledge.read_only import read_index

_SHOWN_FOLDERS = 3


def _folder(source_id: str) -> str:
    """The folder a file id starts with ("" for a file ingested alone)."""
    head, slash, _ = source_id.rpartition("#")[0].partition("/")
    return head if slash else ""


def indexed_folders(index_path: Path) -> set[str]:
    """The first folders of the index's relpaths (read-only; empty when it cannot be read)."""
    return read_index(index_path, _indexed_folders, set())


def _indexed_folders(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT relpath FROM files").fetchall()
    return {_folder(f"{relpath}#0") for (relpath,) in rows} - {""}


def gold_folder_problem(
    data: Path,
    cases: Sequence[EvalCase],
    known: Callable[[str], bool],
    folders: Collection[str],
    tables: Collection[str] = (),
) -> str | None:
    """The error for gold ids that name another folder than the index's, or None.

    Said when no gold id (of a question case, not a record's) is in the index, or when one
    that is not starts with a folder the index does not hold; otherwise (a file removed or
    renumbered) the id is left to :func:`bot.evaluation.dataset.check_known_sources`.
    """
    named: list[tuple[int, str]] = []
    for case in cases:
        if case.answer is not None:
            continue
        own = {source.id for source in case.sources}
        ids = [*(case.gold_citations or ()), *(label.source for label in case.labels)]
        named += [(case.line, i) for i in ids if i not in own and i.partition("/")[0] not in tables]
    missing = [(line, i) for line, i in named if not known(i)]
    # an id without a folder is a file ingested alone: its folder cannot be the reason
    elsewhere = [(line, i) for line, i in missing if _folder(i) and _folder(i) not in folders]
    if not elsewhere:
        return None
    held = sorted(folders)
    holds = ", ".join(f"{f}/…" for f in held[:_SHOWN_FOLDERS])
    holds += f" and {len(held) - _SHOWN_FOLDERS} more" if len(held) > _SHOWN_FOLDERS else ""
    holds = f"this index holds {holds}" if holds else "this index holds no folder"
    why = f"ids start with the folder given to `citecast ingest` ({holds})"
    if len(missing) == len(named):
        starts = sorted({_folder(i) for _, i in named} - {""})
        theirs = f", e.g. {starts[0]}/…" if starts else ""
        return f"{data}: none of the gold ids is in the index{theirs}: {why}"
    line, source_id = elsewhere[0]
    return f"{data}:{line}: gold id {source_id!r} is not in the index: {why}"
