"""The paths of a file that the index's globs are matched against, in the order they are tried.

``index.audience_rules`` and ``index.url_templates`` see a file the same way (one matcher
serving both): first its path inside the outermost folder ever ingested into the index that
holds it (:func:`rule_paths`), then its path inside every other folder that holds it, from
the file's own folder up to the working directory or the config file's folder
(:func:`other_paths`, innermost first). A glob written for ``citecast ingest docs``
(``many/*``) then matches ``docs/many/x.md`` as ``many/x.md`` whether ``docs``,
``docs/many`` or the file alone was ingested. :func:`matching_path` is the one glob test.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from pathlib import Path, PurePosixPath


def matching_path(glob: str, paths: Iterable[str]) -> str | None:
    """The first of ``paths`` that ``glob`` matches (case-sensitive, ``*`` crossing ``/``, as
    :func:`fnmatch.fnmatchcase`), or None."""
    return next((path for path in paths if fnmatch.fnmatchcase(path, glob)), None)


def rule_paths(entry_path: Path, rule_path: str, folders: Sequence[Path]) -> tuple[str, ...]:
    """The path globs see first: the file's path inside the outermost ingested folder that
    holds it (``rule_path``, inside this run's root, or inside a folder ingested before).

    One path, whichever folder this run was given: rules written for ``kb`` would otherwise
    match the shorter path inside ``kb/internal`` ("faq/*" matching ``internal/faq/x.md`` as
    ``faq/x.md``) and re-ingesting a subfolder could make a private file public.
    """
    inside = (entry_path.relative_to(f).as_posix() for f in folders if entry_path.is_relative_to(f))
    return (max((rule_path, *inside), key=len),)


def paths_above(entry_path: Path, inside: str, top: Path | None) -> tuple[str, ...]:
    """The file's paths inside each folder above the one ``inside`` is taken from, up to
    ``top`` (the working directory), innermost first: ``internal/pay.md`` then
    ``docs/internal/pay.md`` for ``docs/internal/pay.md`` ingested as ``docs/internal``.
    None when the file is not under ``top``."""
    if top is None or not entry_path.is_relative_to(top):
        return ()
    parts = entry_path.relative_to(top).parts
    depth = len(PurePosixPath(inside).parts)
    return tuple("/".join(parts[-n:]) for n in range(depth + 1, len(parts) + 1))


def paths_below(inside: str) -> tuple[str, ...]:
    """The file's paths inside each folder between the one ``inside`` is taken from and the
    file, innermost first: ``pay.md`` then ``hr/pay.md`` for ``kb/hr/pay.md`` (the folder
    ``citecast ingest kb`` named, when ``.`` was ingested too)."""
    parts = PurePosixPath(inside).parts
    return tuple("/".join(parts[-n:]) for n in range(1, len(parts)))


def other_paths(entry_path: Path, inside: str, top: Path | None) -> tuple[str, ...]:
    """Every path of the file the globs are tried against when none matches ``inside``:
    :func:`paths_below` then :func:`paths_above`, innermost first."""
    return (*paths_below(inside), *paths_above(entry_path, inside, top))


def glob_paths(
    entry_path: Path, rule_path: str, folders: Sequence[Path], top: Path | None
) -> tuple[str, ...]:
    """Every path of the file at ``entry_path`` in the order globs are tried: its path inside
    the outermost ingested folder (:func:`rule_paths`), then :func:`other_paths`."""
    (first,) = rule_paths(entry_path, rule_path, folders)
    return tuple(dict.fromkeys((first, *other_paths(entry_path, first, top))))
