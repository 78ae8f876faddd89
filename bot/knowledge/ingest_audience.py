"""The ``--audience`` of earlier runs, kept so that a re-ingest never widens a file silently.

``citecast ingest --audience hr hr`` and later ``citecast ingest hr`` (as after an upgrade) made
every file of ``hr/`` public: a run without ``--audience`` took ``public`` for files with no
front matter audience and no matching rule. Now a run with ``--audience`` remembers it for each
of its roots (the index's ``meta`` table, key ``audience:/abs/root``; a later ``--audience``
for a folder replaces what was remembered for it and for the folders inside it), and a run
without one gives such a file, in this order: what was remembered for the innermost root
holding it, else the audience the index already has for the file (an index an older citecast
wrote remembers no root), else ``public``. ``--audience public`` widens on purpose, and is
remembered so. Every kept audience is named in the summary, one line per root, and one per
audience for the files that keep their own stored one, naming the first few of them (a file
still in that state from an earlier run, unchanged since, is counted too: its fingerprint
says it took the default, :func:`bot.knowledge.ingest_file.ingest_file`).

A record names a folder by its absolute path: once the folder is renamed or moved (or the
knowledge base with its index), its files take nothing from it. A run that makes files new
to the index public for want of any audience names each remembered folder that no longer
exists (:meth:`KeptAudiences.gone_roots`), so the operator can pass its ``--audience`` for
the folder's new path; the record is kept, in case the folder comes back (a volume mounted
again).

Both are read before the run writes anything, from the index the run replaces too: a
``--rebuild`` (built in a new file) keeps them as well, and carries the roots' records over.
A file is named as the index names it (``kb/board/minutes.md``), not as the run found it:
``--if-missing`` re-reads each file as a root of its own (``minutes.md``). A rebuild of an
index a newer citecast read (refused by every other command,
:mod:`bot.knowledge.reader_newer`) says so in the summary: the audiences kept are that
reader's, but what this reader finds in a file's own words decides.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.knowledge.read_only import read_index
from bot.knowledge.reader_newer import newer_reader, this_reader
from bot.knowledge.schema import audience_column, audience_tuple

PREFIX = "audience:"
PUBLIC = "public"
# files named in the summary's note on kept audiences before "and N more"
NAMED = 3


@dataclass
class KeptAudiences:
    """What earlier runs gave: each root's remembered ``--audience``, each file's stored
    audience and relpath, and the reader version of a newer citecast that read the index (for
    a rebuild's summary); and, filled during a run, the roots whose ``--audience`` was kept
    and the files (their relpaths, in the order read) that kept their own stored one, for the
    summary."""

    roots: dict[Path, tuple[str, ...]] = field(default_factory=dict)
    files: dict[str, tuple[str, ...]] = field(default_factory=dict)
    relpaths: dict[str, str] = field(default_factory=dict)
    newer: int | None = None
    used: dict[Path, tuple[str, ...]] = field(default_factory=dict)
    kept: dict[tuple[str, ...], list[str]] = field(default_factory=dict)
    # files new to the index that a run without --audience made public for want of any
    new_public: list[str] = field(default_factory=list)

    def _root(self, path: Path) -> Path | None:
        holding = [root for root in self.roots if path.is_relative_to(root)]
        return max(holding, key=lambda root: len(root.parts)) if holding else None

    def default(self, path: Path) -> tuple[str, ...] | None:
        """The audience a file of a run without ``--audience`` defaults to (None: public)."""
        root = self._root(path)
        if root is not None:
            if PUBLIC not in self.roots[root]:
                self.used[root] = self.roots[root]  # said once per root, whatever the files
            return self.roots[root]
        return self.files.get(str(path))

    def of_target(
        self, path: Path, roots: Sequence[Path], audience: Sequence[str] | None
    ) -> tuple[str, ...] | None:
        """The audience the file at ``path`` (a symlink's target) takes when it names none and
        no rule matches, as this run (its ``roots`` and ``--audience``) gives it: ``audience``
        inside the run's roots, else what earlier runs gave it (:meth:`default`, not noted in
        the summary: the link is read, not its target). A link must not publish what its
        target's folder was ingested for: ``ingest --audience staff internal``, then
        ``faq/pay.md -> ../internal/pay.md`` and ``ingest kb``."""
        if audience is not None and any(path.is_relative_to(root) for root in roots):
            return tuple(audience)
        root = self._root(path)
        if root is not None:
            return self.roots[root]
        return self.files.get(str(path))

    def count(self, path: Path, relpath: str) -> None:
        """Count a file (``relpath``: how the summary names it) that took :meth:`default` (no
        front matter audience, no rule), read now or unchanged since, when that came from its
        own stored audience and is not public."""
        if self._root(path) is None:
            found = self.files.get(str(path), (PUBLIC,))
            if PUBLIC not in found:
                self.kept.setdefault(found, []).append(self.relpaths.get(str(path), relpath))

    def count_public(self, path: Path, relpath: str) -> None:
        """Count a file that took ``public`` for want of any audience (no front matter one,
        no rule, no ``--audience`` now or remembered), when the index did not hold it."""
        if str(path) not in self.relpaths:
            self.new_public.append(relpath)

    def gone_roots(self) -> list[tuple[Path, tuple[str, ...]]]:
        """The folders remembered with an ``--audience`` other than ``public`` that no longer
        exist, when the run made files new to the index public: if they were moved or
        renamed (or the knowledge base with its index), their files, under a path no record
        names, are among those (see :mod:`bot.knowledge.ingest_widened`)."""
        if not self.new_public:
            return []
        return [
            (root, groups)
            for root, groups in sorted(self.roots.items())
            if PUBLIC not in groups and not os.path.lexists(root)
        ]

    def notes(self) -> list[tuple[str, str]]:
        """``(path, reason)`` lines for the summary: the audiences kept, one line per root
        (and one per audience for files kept one by one)."""
        lines: list[tuple[str, str]] = []
        if self.newer is not None:
            lines.append(
                (
                    "the index replaced",
                    f"was read by a newer citecast (reader {self.newer}; this one is "
                    f"{this_reader()}): files without an audience of their own kept the one "
                    "it gave them, but a file this citecast reads as public is public now; "
                    "check the private ones, or restore the index you backed up before "
                    "upgrading",
                )
            )
        for root, groups in self.used.items():
            named = ", ".join(groups)
            lines.append(
                (
                    str(root),
                    f"ingested with --audience {named}; its files without a front matter "
                    f"audience or a matching rule keep {named}: pass --audience {named} again, "
                    "or --audience public to widen it",
                )
            )
        for groups, relpaths in self.kept.items():
            named = ", ".join(groups)
            one = len(relpaths) == 1
            files = f"{len(relpaths)} file{'' if one else 's'} ({listed(relpaths)})"
            keep, them = ("keeps", "it") if one else ("keep", "them")
            reason = (
                f"{files} without a front matter audience or a matching rule {keep} the "
                f"audience {named} the index has for {them}: pass --audience {named}, or "
                "--audience public to widen it"
            )
            lines.append(("earlier runs", reason))
        return lines


def listed(names: Sequence[str], shown: int = NAMED) -> str:
    """``names`` for a sentence: ``a.md``, ``a.md and b.md``, ``a.md, b.md and c.md``, or the
    first ``shown`` of more and how many others (``a.md, b.md, c.md and 4 more``)."""
    if len(names) > shown:
        return f"{', '.join(names[:shown])} and {len(names) - shown} more"
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def read_kept(index_path: Path) -> KeptAudiences:
    """The remembered audiences of the index at ``index_path``, read-only (none when there is
    no index or it cannot be read: the run that follows says why)."""
    return read_index(index_path, _read_kept, KeptAudiences())


def _read_kept(conn: sqlite3.Connection) -> KeptAudiences:
    kept = KeptAudiences(newer=newer_reader(conn))
    for key, value in conn.execute(
        "SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?", (len(PREFIX), PREFIX)
    ):
        kept.roots[Path(str(key)[len(PREFIX) :])] = audience_tuple(str(value))
    for path, relpath, column in conn.execute(
        "SELECT f.path, f.relpath, "
        "(SELECT c.audience FROM chunks c WHERE c.file_id = f.id LIMIT 1) FROM files f"
    ):
        kept.relpaths[str(path)] = str(relpath)
        if column:
            kept.files[str(path)] = audience_tuple(str(column))
    return kept


def remember(
    conn: sqlite3.Connection,
    roots: Sequence[Path],
    audience: Sequence[str] | None,
    earlier: KeptAudiences,
) -> None:
    """Carry ``earlier``'s records over (a rebuild starts from an empty index), then store the
    run's ``--audience`` for each of its ``roots``, replacing what was remembered for them and
    for the folders inside them."""
    for root, groups in earlier.roots.items():
        conn.execute(
            "INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)",
            (PREFIX + str(root), audience_column(groups)),
        )
    if audience is None:
        return
    column = audience_column(tuple(audience))
    for root in roots:
        for (key,) in conn.execute(
            "SELECT key FROM meta WHERE substr(key, 1, ?) = ?", (len(PREFIX), PREFIX)
        ).fetchall():
            inside = Path(str(key)[len(PREFIX) :])
            if inside == root or inside.is_relative_to(root):
                conn.execute("DELETE FROM meta WHERE key = ?", (key,))
        conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (PREFIX + str(root), column)
        )
