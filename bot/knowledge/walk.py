"""Which files an ingest run visits: the walk of each PATH, and what it leaves out and why.

Hidden files and folders, ``node_modules`` and ``__pycache__`` are not walked. A folder that
cannot be listed, or a symlinked folder (which leaves the ingested folder, links to a folder
holding it, or names one walked where it lies), is reported rather than passed over in
silence; a file whose name is not UTF-8 is reported too (SQLite, a Source and a terminal
cannot carry it). Overlapping arguments visit each file once (:class:`Visited`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.knowledge.readers import is_supported


@dataclass(frozen=True)
class Skipped:
    """A file left out of the index and why."""

    path: str
    reason: str


OUTSIDE_ROOT = "symlink outside the ingested folder"
NOT_REGULAR = "not a regular file"
BROKEN_LINK = "broken symlink (its target does not exist)"
BAD_NAME = "name is not valid UTF-8 (rename it)"
FOLDER_LOOP = "symlink loop (it links to a folder that holds it)"
# Installed packages and caches, never documentation: a docs site's node_modules holds
# thousands of package READMEs and licences, which would then answer every question.
SKIPPED_FOLDERS = frozenset(("node_modules", "__pycache__"))


@dataclass(frozen=True)
class Entry:
    """A file the walk found: its path, its relpath for ids and messages (from the root's
    parent), its path inside the root (for rules and URL templates) and the root."""

    path: Path
    relpath: str
    rule_path: str
    root: Path
    problem: str | None = None  # a reason to skip the file without reading it


def shown(path: str) -> str:
    """``path`` printable and storable: each byte of a name that is not UTF-8 (a Latin-1 name
    from an old archive) is written as its escape (``lat\\xe9.md``) instead of a surrogate that
    SQLite and terminals refuse. Not U+FFFD: ``lat\\xe9.md`` and ``lat\\xe8.md`` would both show
    as ``lat``, U+FFFD, ``.md``, and the summary could not say which file to rename."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def utf8_name(name: str) -> bool:
    """True when ``name`` (a path from the file system) is valid UTF-8."""
    return shown(name) == name


def walk(
    root: Path, index_path: Path, folders: dict[Path, Skipped] | None = None
) -> Iterator[Entry]:
    """The files under ``root`` in order; folders left out for a reason go to ``folders``."""
    if root.is_file():
        yield Entry(root, root.name, root.name, root)
        return
    base = root.parent

    def skip_folder(path: str | Path, reason: str) -> None:
        if folders is not None:  # keyed by folder: overlapping roots find it more than once
            shown_path = shown(Path(path).relative_to(base).as_posix()) + "/"
            folders.setdefault(Path(path), Skipped(shown_path, reason))

    def cannot_list(exc: OSError) -> None:
        # os.walk would silently leave out a folder it cannot list (no permission)
        skip_folder(exc.filename or root, f"cannot read folder: {exc.strerror or exc}")

    for folder, dirs, files in os.walk(root, onerror=cannot_list):
        kept: list[str] = []
        for name in sorted(dirs):
            if name.startswith(".") or name in SKIPPED_FOLDERS:
                continue
            path = Path(folder, name)
            if not utf8_name(name):
                skip_folder(path, BAD_NAME)
            elif path.is_symlink():
                # os.walk never follows it: the folder it names is walked where it lies when
                # inside the root (nothing to say); one that leaves the root, or a loop, would
                # otherwise be dropped without a word
                reason = _linked_folder(path, root)
                if reason is not None:
                    skip_folder(path, reason)
            else:
                kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = Path(folder, name)
            if path == index_path or path.name.startswith(index_path.name + "-"):
                continue
            relpath = path.relative_to(base).as_posix()
            yield Entry(
                path,
                shown(relpath),
                path.relative_to(root).as_posix(),
                root,
                None if utf8_name(relpath) else BAD_NAME,
            )


def _linked_folder(path: Path, root: Path) -> str | None:
    """Why the symlinked folder ``path`` is not walked, when the summary must say it: it leaves
    the root, or it links to a folder holding it (a loop: ``a/up -> ..``). None for one that
    names another folder of the root, walked where it lies (an alias: its files are read)."""
    try:
        target = path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python 3.11)
        return OUTSIDE_ROOT
    if not target.is_relative_to(root):
        return OUTSIDE_ROOT
    return FOLDER_LOOP if path.parent.resolve().is_relative_to(target) else None


class Visited:
    """Files walked so far this run, so that overlapping arguments (``kb kb``, ``kb kb/a.md``,
    ``kb/sub kb``) read and count each file once. Only roots that overlap another are tracked:
    the usual run keeps no set that grows with the corpus."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self._tracked = {
            root
            for i, root in enumerate(roots)
            for j, other in enumerate(roots)
            if i != j and (root.is_relative_to(other) or other.is_relative_to(root))
        }
        self._paths: set[Path] = set()

    def first(self, root: Path, path: Path) -> bool:
        """True the first time ``path`` (found under ``root``) is seen."""
        if root not in self._tracked:
            return True
        if path in self._paths:
            return False
        self._paths.add(path)
        return True


def count_files(paths: Sequence[Path], index_path: Path) -> int:
    """How many supported files the walk will visit (for the progress bar's total)."""
    visited = Visited(paths)
    return sum(
        1
        for root in paths
        for e in walk(root, index_path)
        if is_supported(e.path) and visited.first(root, e.path)
    )
