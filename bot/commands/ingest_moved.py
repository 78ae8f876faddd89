"""The ingest summary's lines about a private folder moved or renamed: the files whose same
content came back under a wider audience, and the folders remembered with an ``--audience``
that no longer exist, with the command that gives it again (see
:mod:`bot.knowledge.ingest_widened` and :mod:`bot.knowledge.ingest_audience`).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from bot.commands.output import one_line, plural
from bot.knowledge.ingest_audience import listed
from bot.knowledge.ingest_report import IngestReport
from bot.knowledge.ingest_widened import Widened


def _groups(audience: Sequence[str]) -> str:
    # "or": whoever is in one of the groups may read the file, as the "narrower" note says
    return " or ".join(one_line(group) for group in audience)


def widened_note(files: Sequence[Widened]) -> str | None:
    """``note: 1 file is now wider than before: kb/private/pay.md staff → public (was
    kb/internal/pay.md)``: the first three files and how many more."""
    if not files:
        return None
    one = len(files) == 1
    changes = [
        f"{one_line(f.relpath)} {_groups(f.before)} → {_groups(f.after)} (was {one_line(f.was)})"
        for f in files
    ]
    count = f"{len(files)} file{'' if one else 's'} {'is' if one else 'are'}"
    return f"note: {count} now wider than before: {listed(changes)}"


def _reapply(groups: Sequence[str], config: str | None) -> str:
    words = ["citecast"]
    if config:
        words += ["--config", shlex.quote(config)]
    words.append("ingest")
    for group in groups:
        words += ["--audience", shlex.quote(one_line(group))]
    return " ".join([*words, "NEW_PATH"])


def gone_root_warnings(report: IngestReport, config: str | None = None) -> list[str]:
    """A warning for each folder remembered with an ``--audience`` that no longer exists, in a
    run that made files new to the index public: moved or renamed, its files may be among
    them (``config``: the ``--config`` given, repeated in the command)."""
    if not report.new_public:
        return []
    made = f"{plural(len(report.new_public), 'file')} new to the index public"
    named = listed([one_line(name) for name in report.new_public])
    lines: list[str] = []
    for root, groups in report.gone_roots:
        lines.append(
            f"warning: folder {one_line(root)} was ingested with --audience "
            f"{', '.join(one_line(g) for g in groups)} and no longer exists; this run made "
            f"{made} ({named}): if the folder was moved or renamed (or the knowledge base "
            f"with its index), give it its audience again under its new path: "
            f"`{_reapply(groups, config)}`"
        )
    return lines


def moved_lines(report: IngestReport, config: str | None = None) -> list[str]:
    """Every line of the summary on moved private folders, in order."""
    lines = gone_root_warnings(report, config)
    if (note := widened_note(report.widened)) is not None:
        lines.append(note)
    return lines
