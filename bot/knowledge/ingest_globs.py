"""Which of the index's globs an ingest run warns of (used by :mod:`bot.knowledge.ingest`).

An ``index.audience_rules`` or ``index.url_templates`` glob that applies to no file is a
mistake the user cannot see otherwise (a typo, a glob written for another folder): the file it
was meant for is public, or cited without a link, silently. A run whose roots are all inside
the working directory or the config file's folder tried every path of its files, and names
the globs that apply to no file of the index; one with a root outside both names the audience
rules that matched no file of the run (paths above that root were not tried).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge.audience_rules import RunRules, unmatched_rules
from bot.knowledge.file_urls import RunTemplates
from bot.knowledge.ingest_report import IngestReport
from bot.knowledge.writer import IndexWriter


def warn_of_globs(
    report: IngestReport,
    writer: IndexWriter,
    settings: IndexSettings,
    run: tuple[RunRules, RunTemplates],
    roots: Sequence[Path],
) -> None:
    """Fill ``report``'s lists of globs that applied to no file (see the module docstring)."""
    rules, templates = run
    if not report.files:
        return
    if any(rules.top(root) is None for root in roots):
        report.unmatched_rules = unmatched_rules(settings, rules.matched)
    elif settings.audience_rules:
        # every path of these roots was tried, above them too: a rule that matched none
        # and applies to no other indexed file is a mistake (a typo, another folder's glob)
        report.unused_rules = _indexed(writer, lambda files: rules.unused(settings, files, roots))
    if settings.url_templates:
        report.unused_url_templates = _indexed(
            writer, lambda files: templates.unused(rules, settings, files, roots)
        )


def _indexed(writer: IndexWriter, find: Callable[[Iterator[Path]], list[str]]) -> list[str]:
    """``find`` run over the paths of the index's files, read lazily (it may stop early)."""
    cursor = writer.conn.execute("SELECT path FROM files")
    try:
        return find(Path(row[0]) for row in cursor)
    finally:
        cursor.close()  # read in part: VACUUM refuses to run beside it
