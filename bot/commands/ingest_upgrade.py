"""The ingest summary's lines about an upgrade: what ``--if-missing`` did with an index an
older citecast read, which re-read files a narrower audience now keeps from people who could
read them until this run, and how many files an older citecast read are left (``citecast
ingest kb/guides`` when the rest of ``kb`` is old too), with the command that reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.commands.ingest_stale import OlderFiles
from bot.commands.output import one_line
from bot.knowledge.ingest_audience import listed
from bot.knowledge.ingest_narrowed import Narrowed
from bot.knowledge.ingest_report import IngestReport
from bot.knowledge.reader_age import older_files_left
from bot.knowledge.walk import Skipped
from bot.private_files import readable_by_others


def reread_notes(files: OlderFiles, paths: Sequence[str]) -> list[str]:
    """The summary's lines on what ``--if-missing`` did with an index an older citecast read:
    that the PATHs were not ingested (so ``make serve`` never adds the samples to a user's
    index, nor seems to), and the symlinks it left for a run of their folder."""
    named = " ".join(dict.fromkeys(one_line(path) for path in paths))
    lines = [
        "--if-missing: the index exists; read again only its files an older citecast read, "
        f"nothing added from {named} (`citecast ingest PATH` adds files)"
    ]
    for link in files.links:
        lines.append(
            f"  not re-read {one_line(link.relpath)}: a symlink; run `citecast ingest PATH` "
            "with the folder it was ingested from"
        )
    return lines


def _groups(audience: Sequence[str]) -> str:
    # "or": whoever is in one of the groups may read the file (", " would run into the list)
    return " or ".join(one_line(group) for group in audience)


def narrowed_note(files: Sequence[Narrowed]) -> str | None:
    """``note: 1 file is now narrower than before: kb/internal/pay.md public → staff``: the
    re-read files whose audience narrowed, the first three of them and how many more."""
    if not files:
        return None
    one = len(files) == 1
    changes = [f"{one_line(f.relpath)} {_groups(f.before)} → {_groups(f.after)}" for f in files]
    count = f"{len(files)} file{'' if one else 's'} {'is' if one else 'are'}"
    return f"note: {count} now narrower than before: {listed(changes)}"


def upgrade_lines(
    report: IngestReport,
    index_path: Path,
    older: OlderFiles | None,
    paths: Sequence[str],
    config: str | None,
) -> list[str]:
    """Every line of the summary on the upgrade, in order (``older``: what ``--if-missing``
    re-read, None for any other run; ``config``: the ``--config`` given, repeated in the
    command that reads the files left)."""
    lines = reread_notes(older, paths) if older is not None else []
    if (note := narrowed_note(report.narrowed)) is not None:
        lines.append(note)
    if older is None and (left := older_files_left(index_path, report.reread, config)):
        # --if-missing read every one it could, and named the symlinks it left
        lines.append(left)
    return lines


def note_exposed(report: IngestReport, index_path: Path) -> None:
    """Add the note that every account can read the index to ``report``, once: a rebuilt
    index takes the old one's mode after the run (which checked its new, private file)."""
    where = str(index_path.resolve())
    exposed = readable_by_others(index_path)
    if exposed and not any(note.path == where for note in report.notes):
        report.notes.append(Skipped(where, exposed))
