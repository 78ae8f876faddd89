"""``citecast ingest PATH...``: build or update the knowledge index."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "read Markdown, text, HTML and PDF files into the search index"
DESCRIPTION = """\
Read Markdown, plain-text, HTML and PDF files (and folders of them) into the SQLite FTS5 index at
index.path (default .citecast/index.db). Unchanged files are skipped, changed ones replaced, files
removed from an ingested folder are dropped. Unreadable, encrypted or empty files are listed with
the reason and never stop the run; so is a file whose front matter names an empty audience.
A PATH that is missing or neither a file nor a folder is an error. --audience must name a group:
an empty one (an unset "$GROUP") is refused, and --audience public makes files public on purpose.

examples:
  citecast ingest examples/
  citecast ingest docs/ handbook.pdf --audience staff
  citecast ingest --rebuild docs/        start from an empty index (needed after a schema change)
  citecast ingest examples/ --if-missing do nothing when a current index already exists
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's options."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to ingest")
    parser.add_argument("--rebuild", action="store_true", help="delete the index and start over")
    parser.add_argument(
        "--audience",
        action="append",
        metavar="GROUP",
        help="audience of files without front matter or a matching rule (repeatable)",
    )
    parser.add_argument(
        "--if-missing",
        action="store_true",
        help="do nothing when the index already exists and is current (not with --rebuild)",
    )


def run(args: argparse.Namespace) -> int:
    """Ingest, with a progress bar on stderr and a summary on stdout."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from bot.commands.output import plural
    from bot.config_file import load_settings
    from bot.errors import ValidationError
    from bot.knowledge import KnowledgeIndex, ingest
    from bot.knowledge.audience import document_audience
    from bot.knowledge.ingest import count_files, resolve_roots

    if args.if_missing and args.rebuild:
        # one asks to keep a current index, the other to throw it away
        raise ValidationError("--if-missing and --rebuild cannot be used together")
    audience = [g for value in args.audience or [] for g in document_audience(value, "--audience")]
    settings = load_settings(args.config)
    index_path = Path(settings.index.path)
    roots = resolve_roots(args.paths)  # a bad path is an error whatever the other flags
    out = Console(highlight=False, soft_wrap=True)
    if args.if_missing and index_path.exists():
        stats = KnowledgeIndex(index_path).stats()  # raises when the schema is old
        out.print(
            f"index {index_path} is current ({plural(stats.files, 'file')}, "
            f"{plural(stats.chunks, 'chunk')}); nothing to do"
        )
        return 0
    total = count_files(roots, index_path.resolve())
    progress = Progress(
        TextColumn("ingesting"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}", style="dim"),
        console=Console(file=sys.stderr),
        transient=True,
        disable=total < 20,
    )
    with progress:
        task = progress.add_task("", total=total)

        def advance(name: str) -> None:
            progress.update(task, advance=1, description=name[-60:])

        report = ingest(
            roots, settings.index, audience=audience or None, rebuild=args.rebuild, on_file=advance
        )
    stats = KnowledgeIndex(index_path).stats()
    out.print(
        f"{plural(report.files, 'file')}: {report.indexed} indexed, {report.unchanged} unchanged, "
        f"{len(report.skipped)} skipped, {report.removed} removed; "
        f"{plural(report.chunks, 'chunk')} and {plural(report.pages, 'PDF page')} written"
    )
    if report.ignored:
        out.print(f"{plural(report.ignored, 'file')} of other types ignored")
    for skipped in report.skipped:
        out.print(f"  skipped {skipped.path}: {skipped.reason}", markup=False)
    size_kb = stats.size_bytes / 1024
    out.print(
        f"index {index_path}: {plural(stats.files, 'file')}, {plural(stats.chunks, 'chunk')}, "
        f"{size_kb:,.0f} KB",
        markup=False,
    )
    return 0
