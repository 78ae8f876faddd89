"""``citecast ingest PATH...``: build or update the knowledge index."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.commands.output import one_line

if TYPE_CHECKING:
    from bot.commands.ingest_stale import OlderFiles
    from bot.config import Settings

HELP = "read Markdown, text, HTML and PDF files into the search index"
DESCRIPTION = """\
Read Markdown, plain-text, HTML and PDF files (and folders of them) into the SQLite FTS5 index at
index.path (default .citecast/index.db). Unchanged files are skipped, changed ones replaced, files
removed from an ingested folder are dropped (and the index file compacted when that frees a
quarter of it). Hidden files and folders and node_modules are not read. Unreadable, encrypted
or empty files, and folders that cannot be read, are listed with the reason and never stop the
run; so is a file whose front matter names an empty audience, and one larger than
index.max_file_bytes (default 50 MB; 0 = no limit), which is never read.
A PATH that is empty (an unset "$DOCS"), missing or neither a file nor a folder is an error;
a folder in which nothing is found to read gets a warning in the summary (the status stays 0).
--audience must name a group: an empty one (an unset "$GROUP") is refused, and --audience public
makes files public on purpose. Without --audience, a file keeps the audience an earlier
--audience gave its folder (or, in an index an older citecast wrote, the one it has), and the
summary says so; it is never made public silently.
--rebuild reads PATH into a new index beside the old one and swaps it in when complete (the old
one stays in place, searchable, until then; each folder keeps its --audience). Runs into one
index take turns: while the first run or a --rebuild builds it, a run that would write it
waits (and says so), and --rebuild waits for the runs updating it to finish.

examples:
  citecast ingest examples/
  citecast ingest docs/ handbook.pdf --audience staff
  citecast ingest --rebuild docs/        build the index anew from docs/ (needed after a schema
                                         change)
  citecast ingest examples/ --if-missing build the index only when there is none yet; on one
                                         an older citecast read, re-read its own files
                                         (nothing is added from examples/ then)
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's options."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to ingest")
    parser.add_argument(
        "--rebuild",
        action="store_true",
        help="build a new index from PATH beside the old one and swap it in when complete "
        "(each folder keeps its --audience; other runs wait for it)",
    )
    parser.add_argument(
        "--audience",
        action="append",
        metavar="GROUP",
        help="audience of files without front matter or a matching rule (repeatable)",
    )
    parser.add_argument(
        "--if-missing",
        action="store_true",
        help="build the index only when there is none; an index that exists gets nothing "
        "from PATH: the files of it an older citecast read are read again, and one this "
        "citecast read is left as it is, not updated (not with --rebuild)",
    )


# files in a run, or pages in one PDF, from which the progress bar is shown
LONG_RUN = 20


def run(args: argparse.Namespace) -> int:
    """Ingest (see :func:`_run`); an error names the ``--config`` given (see
    :mod:`bot.commands.config_named`): without it, the command it names would write another
    index."""
    from bot.commands.config_named import naming_config

    with naming_config(args.config):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Check the arguments, then ingest (:func:`_ingest_in_turn`) in turn with the other runs
    into the index (:mod:`bot.commands.ingest_lock`): an update waits while a first run or a
    ``--rebuild`` builds it, and those wait for every other run; one that waits says so on
    stderr. ``--if-missing`` on an index that needs nothing returns at once, whatever runs."""
    from bot.commands.ingest_lock import FIRST_RUN, REBUILD, taking_turns
    from bot.commands.output import check_utf8
    from bot.config_file import config_origin, load_settings
    from bot.errors import KnowledgeIndexError, ValidationError
    from bot.knowledge.audience import document_audience
    from bot.knowledge.index_file import refuse_foreign
    from bot.knowledge.ingest import resolve_roots
    from bot.path_lookup import path_state

    if args.if_missing and args.rebuild:
        # one asks to keep a current index, the other to throw it away
        raise ValidationError("--if-missing and --rebuild cannot be used together")
    if any(not path.strip() for path in args.paths):
        # Path("") is the working directory: an unset "$DOCS" would ingest whatever is there
        raise ValidationError("PATH: empty path; name a file or folder (. for this folder)")
    for value in args.audience or []:
        check_utf8(value, "--audience")  # else a traceback once the first file is fingerprinted
    audience = [g for value in args.audience or [] for g in document_audience(value, "--audience")]
    settings = load_settings(args.config, opens_data=True)
    origin = config_origin(args.config)
    # audience rules are written for paths from the config file's folder as well (make serve
    # runs --if-missing from the repository clone with the deployment's --config)
    above = (Path(origin).resolve().parent,) if origin else ()
    index_path = Path(settings.index.path)
    # its folder may be one this user cannot search: one line naming index.path, not a traceback
    path_state(index_path, shown=f"index.path {index_path}", error=KnowledgeIndexError)
    roots = resolve_roots(args.paths)  # a bad path is an error whatever the other flags
    if args.rebuild:
        refuse_foreign(index_path)  # the store, by a slip in config.yaml: never replace it
    if args.if_missing and index_path.exists() and _older_or_exists(index_path) is None:
        return 0  # nothing to write: `make serve` never waits for a rebuild to finish
    building = REBUILD if args.rebuild else None if index_path.exists() else FIRST_RUN
    with taking_turns(index_path, building=building):
        return _ingest_in_turn(args, settings, roots, audience, above)


def _older_or_exists(index_path: Path) -> OlderFiles | None:
    """For ``--if-missing`` on an index that exists: its files an older citecast read, to be
    read again, or None after saying that the index exists and is left as it is."""
    from bot.commands.ingest_stale import older_files
    from bot.commands.output import plural, write_stdout
    from bot.knowledge import KnowledgeIndex

    index = KnowledgeIndex(index_path)
    try:
        stats = index.stats()  # raises when the schema is old
    finally:
        index.close()
    older = older_files(index_path)
    if older.count:
        # After an upgrade (`make serve` runs this): the index's own files an older reader
        # read are read again, and nothing is added from the PATHs (see ingest_stale).
        return older
    # Whether its files changed since is not checked (that is a whole ingest run): the index
    # exists, and that is all --if-missing asks, so it is not "current".
    write_stdout(
        f"index {index_path} exists ({plural(stats.files, 'file')}, "
        f"{plural(stats.chunks, 'chunk')}); --if-missing builds a missing index or "
        "re-reads what an older citecast read; run `citecast ingest PATH` to update it\n"
    )
    return None


def _ingest_in_turn(
    args: argparse.Namespace,
    settings: Settings,
    roots: list[Path],
    audience: list[str],
    above: tuple[Path, ...],
) -> int:
    """Ingest, with a progress bar on stderr and a summary on stdout.

    A new index (the first run, or ``--rebuild``) is written beside the old one and moved into
    place only when the run completes: an interrupted or failed run leaves the index as it was,
    never half-built (which ``--if-missing`` would then leave as it is). Ctrl-C stops before
    the next file or PDF page (see :class:`StopBetweenFiles`), exit status 130; SIGTERM too,
    status 143. What the old index holds is read only now, after any run that wrote it.
    """
    from rich.markup import escape

    from bot.commands.ingest_stale import reread_older
    from bot.commands.ingest_stop import (
        StopBetweenFiles,
        StoppedError,
        remove_database,
        remove_reader_files,
        remove_stale_builds,
    )
    from bot.commands.ingest_summary import write_summary
    from bot.commands.ingest_upgrade import note_exposed
    from bot.commands.output import plural, progress_bar, stdout_console
    from bot.errors import KnowledgeIndexError
    from bot.knowledge import ingest
    from bot.knowledge.index_file import indexed_paths
    from bot.knowledge.ingest import count_files

    index_path = Path(settings.index.path)
    older: OlderFiles | None = None
    if args.if_missing and index_path.exists():
        # again: a first run or a rebuild this run waited for has just written it
        older = _older_or_exists(index_path)
        if older is None:
            return 0
    # what the new index leaves out of the old one is removed, and counted so
    before = indexed_paths(index_path) if args.rebuild else None
    out = stdout_console(highlight=False, soft_wrap=True)
    remove_stale_builds(index_path)
    total = len(older.readable) if older is not None else count_files(roots, index_path.resolve())
    fresh = args.rebuild or not index_path.exists()
    # a new index is built under another name and moved into place once complete
    target = index_path.with_name(f"{index_path.name}.new-{os.getpid()}") if fresh else index_path
    if fresh:
        remove_database(target)
    # A few files are read before a bar would be seen, but one long PDF takes minutes: the bar
    # is hidden until there are many files, or a PDF of many pages is being read.
    progress = progress_bar("ingesting", show=True)
    stop = StopBetweenFiles()
    started = 0
    current = ""
    try:
        with progress, stop:
            task = progress.add_task("", total=total, visible=total >= LONG_RUN)

            def advance(name: str) -> None:
                nonlocal started, current
                stop.check()  # before the file: every file so far is complete in the index
                started += 1
                current = one_line(name)
                # a file name is not markup: "[draft]/" would vanish and "[/x]" raise
                progress.update(task, advance=1, description=escape(current[-60:]))

            def page(number: int, pages: int) -> None:
                nonlocal started
                if stop.requested:
                    started -= 1  # the PDF being read is left out whole
                    stop.check()
                # a thousand-page manual shows that it moves
                shown = f"{current[-45:]} (page {number} of {pages})"
                long_pdf = pages >= LONG_RUN
                progress.update(task, description=escape(shown), visible=long_pdf or None)

            def between_chunks() -> None:
                nonlocal started
                if stop.requested:
                    started -= 1  # the file being read is left out whole
                    stop.check()

            if older is not None:
                report = reread_older(
                    older,
                    settings.index,
                    on_file=advance,
                    on_page=page,
                    on_chunk=between_chunks,
                    above=above,
                )
            else:
                report = ingest(
                    roots,
                    settings.index.model_copy(update={"path": str(target)}),
                    audience=audience or None,
                    on_file=advance,
                    on_page=page,
                    on_chunk=between_chunks,
                    above=above,
                    # a new index keeps the --audience the one it replaces remembered
                    previous=index_path.resolve() if fresh else None,
                )
        if before:
            report.removed += len(before - (indexed_paths(target) or frozenset()))
        if fresh:
            remove_reader_files(target)  # the run's read-only looks at it left them
            # the old index's -wal/-shm must not meet the new file; the file itself is replaced
            # in one step, so a running server sees the old index or the new one, never none
            for companion in (Path(f"{index_path}-wal"), Path(f"{index_path}-shm")):
                companion.unlink(missing_ok=True)
            if index_path.exists():  # a rebuilt index keeps the mode the old one was given
                os.chmod(target, stat.S_IMODE(index_path.stat().st_mode))
            os.replace(target, index_path)
            note_exposed(report, index_path)  # so it is said of the mode it was given
    except StoppedError:
        if fresh:
            remove_database(target)
            kept = (
                f"the index at {index_path} is as it was"
                if index_path.exists()
                else "no index was written"
            )
        else:
            kept = "the files read so far are in the index; run the command again to finish"
        print(
            f"citecast ingest: interrupted after {started} of {plural(total, 'file')}; {kept}",
            file=sys.stderr,
        )
        return 128 + stop.signum  # 130 for Ctrl-C, 143 for SIGTERM, as the shell reports them
    except KnowledgeIndexError as exc:
        if not fresh:
            raise
        remove_database(target)
        # name the index the user configured, not the file it was being built in
        message = str(exc).replace(str(target.resolve()), str(index_path))
        raise KnowledgeIndexError(message.replace(str(target), str(index_path))) from None
    except BaseException:
        if fresh:
            remove_database(target)
        raise
    write_summary(out, report, index_path, older, args.paths, args.config, settings.index.records)
    return 0
