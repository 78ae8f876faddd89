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
finds it (:mod:`bot.knowledge.file_urls`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge.audience_rules import RunRules, rule_tops
from bot.knowledge.file_urls import template_url
from bot.knowledge.ingest import IngestReport, ingest, reader_mark
from bot.knowledge.pdf_reader import PageCallback
from bot.knowledge.read_only import read_index
from bot.knowledge.schema import audience_tuple


@dataclass(frozen=True)
class OlderFile:
    """A file of the index an older citecast's reader read."""

    path: Path
    relpath: str  # as stored: how messages name it
    audience: tuple[str, ...]  # as stored: the default it is read again with
    url: str | None  # what index.url_templates gives it from its folders' paths


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


def older_files(
    index_path: Path, settings: IndexSettings, above: Sequence[Path] = ()
) -> OlderFiles:
    """The files of the index at ``index_path`` whose fingerprint another reader wrote
    (read-only; none when the index cannot be read: the run that follows says why).
    ``above``: the config file's folder, up to which globs see a file's paths."""
    read = read_index(index_path, _older_rows, None)
    if read is None:
        return OlderFiles((), (), 0)
    rows, roots = read
    rules = RunRules([root for root in roots if root.is_dir()], rule_tops(above))
    readable: list[OlderFile] = []
    links: list[OlderFile] = []
    missing = 0
    for path_text, relpath, audience in rows:
        path = Path(path_text)
        template = template_url(rules.paths(path, path.name), settings)
        url = template.url if template is not None else None
        found = OlderFile(path, relpath, audience_tuple(audience or ""), url)
        if path.is_symlink():
            links.append(found)
        elif path.is_file():
            readable.append(found)
        else:
            missing += 1
    return OlderFiles(tuple(readable), tuple(links), missing)


def _older_rows(
    conn: sqlite3.Connection,
) -> tuple[list[tuple[str, str, str | None]], list[Path]] | None:
    """The (path, relpath, audience) rows of the files another reader read, and the roots."""
    mark = reader_mark()
    rows: list[tuple[str, str, str | None]] = conn.execute(
        "SELECT f.path, f.relpath, "
        "(SELECT c.audience FROM chunks c WHERE c.file_id = f.id LIMIT 1) "
        "FROM files f WHERE substr(f.fingerprint, 1, ?) != ? ORDER BY f.path",
        (len(mark), mark),
    ).fetchall()
    roots = [Path(row[0]) for row in conn.execute("SELECT path FROM roots")]
    return rows, roots


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
    groups: dict[tuple[tuple[str, ...], str | None], list[Path]] = {}
    for file in files.readable:
        groups.setdefault((file.audience, file.url), []).append(file.path)
    report = IngestReport()
    if not groups and files.missing:
        groups[((), None)] = []  # a run of no files still drops the ones that are gone
    for (_audience, url), paths in groups.items():
        # one URL for the group's files, as their folder's template gave it (see module doc)
        templates = {"*": url} if url else {}
        part = ingest(
            paths,
            settings.model_copy(update={"url_templates": templates}),
            # no --audience: each file keeps the one the index has for it (passed as one,
            # it would be remembered for the file, above its folder's)
            on_file=on_file,
            on_page=on_page,
            on_chunk=on_chunk,
            above=above,
        )
        _add(report, part)
    return report


def _add(total: IngestReport, part: IngestReport) -> None:
    for field in fields(IngestReport):
        mine, theirs = getattr(total, field.name), getattr(part, field.name)
        if isinstance(mine, list):
            mine.extend(theirs)
        elif isinstance(mine, dict):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count
        else:
            setattr(total, field.name, mine + theirs)
