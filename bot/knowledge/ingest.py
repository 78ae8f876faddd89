"""Streaming ingestion: walk the given paths, read each file once, write its chunks in batches.

Memory stays flat with corpus size: folders are walked lazily (twice: once to count for the
progress bar, once to ingest), one file is in memory at a time, and rows are committed every
``BATCH_FILES`` files. A file whose content and settings are unchanged (same fingerprint) is
skipped; a changed one has its chunks replaced; files that vanished from an ingested folder, or
that this run could not read, are removed, and so is every indexed file, ingested alone or in a
folder, whose path no longer exists. Unreadable, encrypted or empty files, and files larger
than ``index.max_file_bytes`` (never read), are listed with the reason and never stop a run; so
is a symlink whose target lies outside the outermost ingested folder holding it (this run's
root, or a folder above it ingested before), which is never read. A run that
leaves a quarter of the index free (removed or replaced files) compacts it with VACUUM
(:mod:`bot.knowledge.compaction`), so the file shrinks when a large file leaves it; one that
replaced or removed chunks merges the search index first, whose segments keep deleted words.
Each file is checked, fingerprinted, read and written by :mod:`bot.knowledge.ingest_file`.

Source ids are ``relpath#chunk``: the file's path from the ingested root's parent, with more
parent folders when another indexed file already has it (see ``IndexWriter.relpath_for``).

A file's public URL: front-matter ``url:`` (HTML: canonical link), else the first matching
``index.url_templates`` glob, matched against the same paths of the file as audience rules
(:mod:`bot.knowledge.file_urls`), else none (renderers then attach the file or sign a download
link).
A relative ``url:`` (Hugo's ``url = "/docs/setup/"``, ``<link rel="canonical" href="setup.html">``)
is resolved against the template's URL, as a browser resolves it against the page's address;
one that still is no absolute http(s) URL is noted in the summary and the template's URL kept.

Audience of a file, most specific first: front matter ``audience:`` (or the HTML meta tag), the
first matching ``index.audience_rules`` glob, ``--audience``, else what an earlier run's
``--audience`` gave it (:mod:`bot.knowledge.ingest_audience`), else ``["public"]`` (a file new to
the index whose same content a restricted file this run removed had, now wider, is named in the
summary: a private folder moved, :mod:`bot.knowledge.ingest_widened`). Rules are
tried, in order, against the file's path inside each folder ever ingested into the index that
holds it (and its path inside this run's root): ``internal/*`` written for ``citecast ingest
priv`` still matches ``priv/internal/bonus.md`` when ``priv/internal`` or the file alone is
ingested later, so re-ingesting part of a folder never drops the audience the folder's rules
gave. When no rule matches that path, the file's paths inside every other folder holding it,
from its own folder up to the working directory or the config file's folder (``above``), are
tried too, and can only narrow its audience, so ingesting the private folder itself first
(``citecast ingest priv/internal``), or a folder above the one the rules were written for
(``citecast ingest .``), keeps it private (see :mod:`bot.knowledge.audience_rules`). An audience
written empty is refused (:func:`document_audience`), never taken as public: a front-matter
one skips the file with the reason.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.config import IndexSettings
from bot.errors import KnowledgeIndexError
from bot.knowledge.audience import document_audience
from bot.knowledge.audience_rules import RunRules, rule_tops
from bot.knowledge.compaction import compact
from bot.knowledge.file_urls import RunTemplates
from bot.knowledge.index_file import indexed_paths, unwritable
from bot.knowledge.ingest_audience import KeptAudiences, read_kept, remember
from bot.knowledge.ingest_file import fingerprint_options, ingest_file
from bot.knowledge.ingest_file import reader_mark as reader_mark  # reader_age imports it here
from bot.knowledge.ingest_globs import warn_of_globs
from bot.knowledge.ingest_narrowed import narrowed_since
from bot.knowledge.ingest_report import IngestReport as IngestReport
from bot.knowledge.ingest_widened import gone_restricted, widened_since
from bot.knowledge.pdf_reader import PageCallback
from bot.knowledge.readers import is_supported
from bot.knowledge.walk import BAD_NAME as BAD_NAME
from bot.knowledge.walk import BROKEN_LINK as BROKEN_LINK
from bot.knowledge.walk import NOT_REGULAR as NOT_REGULAR
from bot.knowledge.walk import OUTSIDE_ROOT as OUTSIDE_ROOT
from bot.knowledge.walk import Skipped as Skipped
from bot.knowledge.walk import Visited, shown, utf8_name, walk
from bot.knowledge.walk import count_files as count_files
from bot.knowledge.writer import IndexWriter
from bot.path_lookup import path_state
from bot.path_lookup import resolved as resolve_path
from bot.private_files import readable_by_others

BATCH_FILES = 200


def resolve_roots(paths: Sequence[str | Path]) -> list[Path]:
    """Absolute paths of the arguments; a missing one is an error before anything is written.

    So is one that is neither a regular file nor a folder (``/dev/null``, a FIFO): there is
    nothing to index in it, and reading a FIFO would wait forever.
    """
    roots: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser()
        found = path_state(path, shown=raw, error=KnowledgeIndexError)
        if not found.exists:
            raise KnowledgeIndexError(f"{raw}: no such file or folder")
        if not (found.is_file or found.is_dir):
            raise KnowledgeIndexError(f"{raw}: not a regular file or folder")
        resolved = resolve_path(path, shown=raw, error=KnowledgeIndexError)
        if not utf8_name(str(resolved)):  # SQLite cannot store it, nor a Source carry it
            raise KnowledgeIndexError(f"{shown(str(raw))}: {BAD_NAME}")
        roots.append(resolved)
    return roots


def ingest(
    paths: Sequence[str | Path],
    settings: IndexSettings,
    *,
    audience: Sequence[str] | None = None,
    rebuild: bool = False,
    on_file: Callable[[str], None] | None = None,
    on_page: PageCallback | None = None,
    on_chunk: Callable[[], None] | None = None,
    above: Sequence[Path] = (),
    previous: Path | None = None,
) -> IngestReport:
    """Ingest ``paths`` into the index at ``settings.path``; returns the run's report.

    ``audience`` (the ``--audience`` groups) is checked like front matter: naming no group is
    a ValidationError, never a silent ``public``. ``on_file(relpath)`` runs before each file
    and ``on_page(page, pages)`` before each page of a PDF; a KeyboardInterrupt either raises
    (Ctrl-C) stops the run there, the PDF being read left out whole (any other exception from
    ``on_page`` counts as its reader's failure and skips the file). ``on_chunk()`` runs before
    each passage of a file is made: a KeyboardInterrupt from it stops the run inside one huge
    file (a 45 MB log takes minutes), that file left out whole, as a PDF is.

    ``above``: more folders (the config file's) up to which audience rules are tried against
    the paths above an ingested folder, besides the working directory. ``previous``: the index
    whose earlier ``--audience`` a run without one keeps (default: ``settings.path``; the old
    index when a rebuild is built in a new file).
    """
    roots = resolve_roots(paths)
    if audience is not None:
        audience = document_audience(list(audience))
    index_path = Path(settings.path).resolve()
    hooks = (on_page, on_chunk)
    # read before anything is written (a rebuild deletes the index first)
    kept = read_kept(previous or index_path)
    # the restricted files this run will remove, for their content may come back wider
    gone = gone_restricted(previous or index_path, kept.files)
    try:
        report = _ingest(
            roots, index_path, settings, audience, rebuild, on_file, hooks, (kept, above)
        )
    except sqlite3.Error as exc:
        hint = " (is another `citecast ingest` running?)" if "locked" in str(exc) else ""
        hint = hint or unwritable(index_path)
        raise KnowledgeIndexError(f"cannot write {index_path}: {exc}{hint}") from None
    report.narrowed = narrowed_since(index_path, kept.files)  # as the index had them before
    report.widened = widened_since(index_path, gone, kept.relpaths)
    report.gone_roots = [(str(root), groups) for root, groups in kept.gone_roots()]
    report.new_public = kept.new_public
    exposed = readable_by_others(index_path)  # made by an older citecast, or shared on purpose
    if exposed:
        report.notes.append(Skipped(str(index_path), exposed))  # absolute, as serve's
    return report


def _ingest(
    roots: Sequence[Path],
    index_path: Path,
    settings: IndexSettings,
    audience: Sequence[str] | None,
    rebuild: bool,
    on_file: Callable[[str], None] | None,
    hooks: tuple[PageCallback | None, Callable[[], None] | None],
    earlier: tuple[KeptAudiences, Sequence[Path]],
) -> IngestReport:
    kept, above = earlier
    # a rebuild removes what the old index held and this run does not index again
    before = indexed_paths(index_path) if rebuild else None
    writer = IndexWriter(index_path, rebuild=rebuild)
    report = IngestReport()
    options = fingerprint_options(settings)
    pending = 0
    try:
        for root in roots:
            writer.add_root(root)
        remember(writer.conn, roots, audience, kept)
        # Every folder ever ingested here, so audience rules see a file's path inside each.
        folders = [folder for folder in writer.roots() if folder.is_dir()]
        rules = RunRules(folders, rule_tops(above))
        templates = RunTemplates()
        visited = Visited(roots)
        folders_skipped: dict[Path, Skipped] = {}
        for root in roots:
            for entry in walk(root, index_path, folders_skipped):
                if not visited.first(root, entry.path):
                    continue
                if not is_supported(entry.path):
                    report.ignored += 1
                    suffix = entry.path.suffix.lower()
                    report.ignored_suffixes[suffix] = report.ignored_suffixes.get(suffix, 0) + 1
                    continue
                report.files += 1
                if on_file is not None:
                    on_file(entry.relpath)
                default = audience if audience is not None else kept.default(entry.path)
                with writer.one_file():
                    took = ingest_file(
                        writer,
                        entry,
                        (rules, templates),
                        settings,
                        default,
                        options,
                        report,
                        hooks,
                        target_default=lambda path: kept.of_target(path, roots, audience),
                    )
                if took and audience is None:
                    kept.count(entry.path, entry.relpath)
                    if default is None:
                        kept.count_public(entry.path, entry.relpath)
                pending += 1
                if pending >= BATCH_FILES:
                    writer.commit()
                    pending = 0
            # A file root too: re-ingested and now unreadable, its old chunks must go.
            report.removed += writer.remove_unseen(root)
        report.folders_skipped = list(folders_skipped.values())
        report.notes.extend(Skipped(where, why) for where, why in kept.notes())
        report.removed += writer.remove_missing()
        warn_of_globs(report, writer, settings, (rules, templates), roots)
        writer.commit()
        if not rebuild:
            report.compacted = compact(
                writer.conn, writer.free_pages, dropped_chunks=writer.dropped_chunks
            )
    finally:
        writer.close()
    if before:
        report.removed += len(before - (indexed_paths(index_path) or frozenset()))
    return report
