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
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge.ingest import IngestReport, ingest, reader_mark
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
    # One run of them all, with no --audience: each file defaults to the audience the index
    # has for it (passed as one, it would be remembered for the file, above its folder's). A
    # run of no files still drops the ones that are gone.
    return ingest(
        [file.path for file in files.readable],
        settings,
        on_file=on_file,
        on_page=on_page,
        on_chunk=on_chunk,
        above=above,
    )
