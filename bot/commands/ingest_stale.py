"""``citecast ingest --if-missing`` on an index an older citecast read, as after an upgrade
(``make serve`` runs ``citecast ingest examples/ --if-missing`` at every start).

The index is the user's own (``citecast ingest --rebuild mydocs``): the files an older reader
read are read again from their stored paths, and nothing is added from the PATHs given. An
ordinary run of those PATHs put the samples back into the user's index and left the user's
own files as the older reader had read them.

Each file is read again as a run of the folder it was ingested from would read it: with the
audience it has in the index (or the ``--audience`` remembered for its folder) as the default
(rules and front matter still come first, tried from the config file's folder as well as the
working directory: ``make serve`` runs this from the repository clone), and with the URL
``index.url_templates`` give it from its paths inside the folders holding it, as that run
finds it (:mod:`bot.knowledge.file_urls`: read alone, a file is still matched by its paths
inside the index's folders). The run is given the configured globs themselves, so it warns
of one that gives no file its URL as a plain ``citecast ingest`` does (it was given one
``*`` glob per file's URL, and never warned).

The run remembers each file it was given as a root of the index, as any ``citecast ingest
FILE`` does; a file that lies inside a folder the index already remembers is forgotten as a
root again after the run, so the re-read leaves the ``roots`` table as it found it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge.ingest import IngestReport, ingest, reader_mark
from bot.knowledge.ingest_command import index_roots
from bot.knowledge.pdf_reader import PageCallback
from bot.knowledge.read_only import read_index


@dataclass(frozen=True)
class OlderFile:
    """A file of the index an older citecast's reader read."""

    path: Path
    relpath: str  # as stored: how messages name it


@dataclass(frozen=True)
class OlderFiles:
    """The index's files an older citecast read, by what can be done with them."""

    readable: tuple[OlderFile, ...]  # read again from their stored paths
    links: tuple[OlderFile, ...]  # symlinks: read alone, the link's target would be read
    missing: int  # no longer there: the run drops them, as any ingest run does

    @property
    def count(self) -> int:
        """How many files of the index an older citecast read."""
        return len(self.readable) + len(self.links) + self.missing


def older_files(index_path: Path) -> OlderFiles:
    """The files of the index at ``index_path`` whose fingerprint another reader wrote
    (read-only; none when the index cannot be read: the run that follows says why)."""
    rows = read_index(index_path, _older_rows, None)
    if rows is None:
        return OlderFiles((), (), 0)
    readable: list[OlderFile] = []
    links: list[OlderFile] = []
    missing = 0
    for path_text, relpath in rows:
        path = Path(path_text)
        found = OlderFile(path, relpath)
        if path.is_symlink():
            links.append(found)
        elif path.is_file():
            readable.append(found)
        else:
            missing += 1
    return OlderFiles(tuple(readable), tuple(links), missing)


def _older_rows(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """The (path, relpath) rows of the files another reader read."""
    mark = reader_mark()
    rows: list[tuple[str, str]] = conn.execute(
        "SELECT path, relpath FROM files WHERE substr(fingerprint, 1, ?) != ? ORDER BY path",
        (len(mark), mark),
    ).fetchall()
    return rows


def reread_older(
    files: OlderFiles,
    settings: IndexSettings,
    *,
    on_file: Callable[[str], None] | None = None,
    on_page: PageCallback | None = None,
    on_chunk: Callable[[], None] | None = None,
    above: Sequence[Path] = (),
) -> IngestReport:
    """Read ``files.readable`` again into the index at ``settings.path``; returns the run's
    report (with the files no longer there removed). ``above``: the config file's folder
    (see :func:`bot.knowledge.ingest.ingest`)."""
    index_path = Path(settings.path).resolve()
    before = index_roots(index_path)
    # One run of them all, with no --audience: each file defaults to the audience the index
    # has for it (passed as one, it would be remembered for the file, above its folder's). A
    # run of no files still drops the ones that are gone.
    try:
        return ingest(
            [file.path for file in files.readable],
            settings,
            on_file=on_file,
            on_page=on_page,
            on_chunk=on_chunk,
            above=above,
        )
    finally:
        # (also after Ctrl-C: the files read before it were remembered as roots too)
        _forget_file_roots(index_path, before)


def _forget_file_roots(index_path: Path, before: Sequence[Path]) -> None:
    """Drop the roots the re-read added that lie inside a root the index had before it."""
    if not before:  # (nothing to lie inside; and connecting would create a missing index)
        return
    try:
        conn = sqlite3.connect(index_path, timeout=30)
    except sqlite3.Error:
        return
    try:
        with conn:
            roots = [Path(str(path)) for (path,) in conn.execute("SELECT path FROM roots")]
            added = [root for root in roots if root not in before]
            inside = [root for root in added if any(root.is_relative_to(old) for old in before)]
            conn.executemany("DELETE FROM roots WHERE path = ?", [(str(r),) for r in inside])
    except sqlite3.Error:
        # not worth failing the run for: an extra file root is harmless (messages name only
        # the outermost roots, and the folder holding the file serves it anyway)
        return
    finally:
        conn.close()
