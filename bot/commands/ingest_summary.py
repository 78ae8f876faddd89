"""The summary ``citecast ingest`` prints on stdout when a run completes.

What the run did with its files (indexed, unchanged, skipped, removed), the lines about an
upgrade (:mod:`bot.commands.ingest_upgrade`) and a private folder moved
(:mod:`bot.commands.ingest_moved`), the files of other types passed over and why a
file named on the command line was, what was skipped or indexed only in part, the notes and
the warnings about folders given that held nothing to read and globs that applied to no file,
the folders not read, the space given back, and the index's size. Split from
:mod:`bot.commands.ingest`, which runs the ingest.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from bot.commands.ingest_moved import moved_lines
from bot.commands.ingest_upgrade import upgrade_lines
from bot.commands.output import one_line, plural, write_stdout
from bot.knowledge import KnowledgeIndex
from bot.knowledge.readers import is_supported
from bot.knowledge.walk import Skipped, walk

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console

    from bot.commands.ingest_stale import OlderFiles
    from bot.config import RecordTable
    from bot.knowledge.ingest_report import IngestReport

REREAD = "this citecast reads some files differently"
"""Why the summary's re-read files were read again though unchanged (after an upgrade)."""

READ_TYPES = "Markdown, text, HTML or PDF"
"""The kinds of file citecast reads, as the summary names them."""

RECORD_SUFFIXES = frozenset({".csv", ".db", ".sqlite", ".sqlite3"})
"""Files people name to ``ingest`` that citecast reads as record tables, from config.yaml."""


def _named_but_ignored(paths: Sequence[str]) -> list[str]:
    """The files named on the command line that no reader takes: asked for by name, they are
    worth a line each (a folder's other files are only counted)."""
    named = dict.fromkeys(paths)  # a file given twice is read once, and named once
    return [path for path in named if Path(path).is_file() and not is_supported(Path(path))]


IGNORED_SUFFIXES_SHOWN = 5
"""How many suffixes the "of other types ignored" line names; the rest are counted."""


def ignored_types(counts: dict[str, int], shown: int = IGNORED_SUFFIXES_SHOWN) -> str:
    """``.csv 2, .py 1, no extension 1``: the suffixes of ignored files, most frequent first
    (then by name, files without one last), the first ``shown`` of them and ``N more`` for the
    files of the rest.

    A folder of unknown files says which kinds they are, so the user can tell a stray
    ``.docx`` (that citecast cannot read) from the build output it rightly passed over.
    """
    ranked = sorted(counts.items(), key=lambda item: (-item[1], not item[0], item[0]))
    # "no extension", unbracketed: the list is printed in brackets ("((no suffix) 1)")
    parts = [f"{one_line(suffix) or 'no extension'} {count}" for suffix, count in ranked[:shown]]
    rest = sum(count for _, count in ranked[shown:])
    if rest:
        parts.append(f"{rest} more")
    return ", ".join(parts)


def listed_table(name: str, tables: list[RecordTable]) -> str | None:
    """The name of the ``index.records`` table read from the file ``name``, or None.

    Table paths are as loaded (relative ones taken from the config file's folder), ``name``
    as given on the command line (from the working directory): both are resolved."""
    try:
        target = Path(name).resolve()
        for table in tables:
            for file in (table.csv, table.sqlite):
                if file and Path(file).resolve() == target:
                    return table.name
    except (OSError, RuntimeError):  # RuntimeError: Python 3.11's word for a symlink loop
        return None
    return None


def _why_ignored(name: str, tables: list[RecordTable]) -> str:
    listed = listed_table(name, tables)
    if listed is not None:
        # telling the user to list it where it is listed sent them looking for a mistake
        return (
            f"a record table already listed under index.records ({listed}); citecast reads "
            "it from there at start, so it needs no ingest"
        )
    reason = f"not a type citecast reads ({READ_TYPES})"
    if Path(name).suffix.lower() in RECORD_SUFFIXES:
        # a table of rows is not a document: it is answered from index.records
        reason += "; list a CSV or SQLite table under index.records in config.yaml instead"
    return reason


def _nothing_to_read(folder: Path, index_path: Path) -> str | None:
    """Why the walk of ``folder`` found no file citecast reads, or None when it found one
    (or left a folder out, which the summary's "not read" lines name instead)."""
    left_out: dict[Path, Skipped] = {}
    visited = False
    for entry in walk(folder, index_path, left_out):
        if is_supported(entry.path):
            return None  # the first one will do: a folder of documents is not walked twice
        visited = True
    if left_out:
        return None
    if visited:
        return f"holds no file citecast reads ({READ_TYPES})"
    with os.scandir(folder) as entries:
        if any(entries):
            return (
                "holds only what citecast never reads "
                "(hidden files and folders, node_modules, __pycache__)"
            )
    return "is empty"


def empty_folder_warnings(paths: Sequence[str], index_path: Path) -> list[str]:
    """A warning for each folder among ``paths`` (the PATHs given) in which the run found
    nothing to read: a mistyped folder, or the wrong one, made a run that said only
    ``0 files`` and exited 0, as a folder emptied on purpose must."""
    lines: list[str] = []
    for raw in dict.fromkeys(paths):
        folder = Path(raw).expanduser()
        if not folder.is_dir():
            continue
        why = _nothing_to_read(folder.resolve(), index_path.resolve())
        if why is not None:
            lines.append(f"warning: folder {one_line(raw)} {why}; nothing was read from it")
    return lines


def index_bytes(index_path: Path) -> int:
    """The index's size as the summary shows it: its file and its ``-wal`` (pages written and
    not yet moved into it), not SQLite's ``-shm``, a 32 KB map of the ``-wal`` that any reader
    makes (this summary's own too) and that holds nothing of the index."""
    total = 0
    for path in (index_path, Path(f"{index_path}-wal")):
        with suppress(OSError):  # no -wal: nothing waits to be moved into the file
            total += path.stat().st_size
    return total


def write_summary(
    out: Console,
    report: IngestReport,
    index_path: Path,
    older: OlderFiles | None,
    paths: Sequence[str],
    config: str | None,
    records: list[RecordTable],
) -> None:
    """Print the summary of a completed run on stdout (``out``: the capturing console, made
    before the run; ``older``: what ``--if-missing`` re-read, None for any other run;
    ``paths`` and ``config``: the PATHs and the ``--config`` given; ``records``: the
    ``index.records`` tables)."""
    index = KnowledgeIndex(index_path)
    try:
        stats = index.stats()
    finally:
        index.close()
    with out.capture() as capture:  # printed by write_stdout: a closed pipe ends quietly
        # on upgrade every file is re-read: say so, or it reads as if each had been edited
        why = f" ({report.reread} re-read: {REREAD})" if report.reread else ""
        out.print(
            f"{plural(report.files, 'file')}: {report.indexed} indexed{why}, "
            f"{report.unchanged} unchanged, {len(report.skipped)} skipped, "
            f"{report.removed} removed; "
            f"{plural(report.chunks, 'chunk')} and {plural(report.pages, 'PDF page')} written"
        )
        if older is None:  # an --if-missing run that re-reads takes nothing from the PATHs
            for line in empty_folder_warnings(paths, index_path):
                out.print(line, markup=False)
        for line in upgrade_lines(report, index_path, older, paths, config):
            out.print(line, markup=False)
        for line in moved_lines(report, config):  # a private folder moved: files now public
            out.print(line, markup=False)
        if report.ignored:
            out.print(
                f"{plural(report.ignored, 'file')} of other types ignored"
                f" ({ignored_types(report.ignored_suffixes)})",
                markup=False,  # a suffix is not markup: ".[x]" would vanish
            )
            for name in _named_but_ignored(paths):
                why = _why_ignored(name, records)
                out.print(f"  ignored {one_line(name)}: {why}", markup=False)
        # a reason may name files too (an audience rule's "(as hr/pay.md)"): kept on its line
        for skipped in report.skipped:
            out.print(
                f"  skipped {one_line(skipped.path)}: {one_line(skipped.reason)}", markup=False
            )
        for partial in report.warnings:
            out.print(
                f"  indexed {one_line(partial.path)} in part: {one_line(partial.reason)}",
                markup=False,
            )
        for note in report.notes:
            # a reason may name files (the kept audiences): each kept on its line
            out.print(f"  note on {one_line(note.path)}: {one_line(note.reason)}", markup=False)
        # once each: --if-missing adds up the reports of several runs
        for glob in dict.fromkeys(report.unmatched_rules):
            # a private folder ingested from outside the working directory: its rule may have
            # been meant for a folder above it, and its files are then not kept private
            out.print(
                f"warning: audience rule {one_line(glob)} matched no file in this run; globs "
                "match paths inside the folder ingested (run citecast from a folder above it)",
                markup=False,
            )
        for glob in dict.fromkeys(report.unused_rules):
            # every folder holding the run's files was tried: the glob applies nowhere (a typo,
            # or written for another folder), and the files it was meant for are not private
            out.print(
                f"warning: audience rule {one_line(glob)} matched no file in this run nor "
                "applies to any other indexed file; globs match a file's path inside each "
                "folder that holds it, up to the working directory or the config file's folder",
                markup=False,
            )
        for glob in dict.fromkeys(report.unused_url_templates):
            # the files it was written for are cited without a link (mail attaches them)
            out.print(
                f"warning: url_templates glob {one_line(glob)} gave no file in this run nor any "
                "other indexed file its URL; globs match a file's path inside each folder that "
                "holds it, up to the working directory or the config file's folder, and the "
                "first path a glob matches decides",
                markup=False,
            )
        if report.folders_skipped:
            # not among the files counted above: what they hold was never seen
            out.print(f"{plural(len(report.folders_skipped), 'folder')} not read")
            for skipped in report.folders_skipped:
                out.print(
                    f"  skipped {one_line(skipped.path)}: {one_line(skipped.reason)}", markup=False
                )
        if report.compacted:
            # the file shrank: without a word, a smaller index after a removal looks like loss
            out.print(
                f"index compacted: {report.compacted / 1024:,.0f} KB that this run freed "
                "given back to the disk (VACUUM)",
                markup=False,
            )
        size_kb = index_bytes(index_path) / 1024
        out.print(
            f"index {index_path}: {plural(stats.files, 'file')}, "
            f"{plural(stats.chunks, 'chunk')}, {size_kb:,.0f} KB",
            markup=False,
        )
    write_stdout(capture.get())
