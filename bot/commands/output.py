"""Commands' standard streams: reading stdin strictly, printing the result on stdout, and
counted nouns in their summaries; the viewer's ``--audience`` groups.

Not a command itself (``bot.cli.COMMANDS`` lists those); shared by the ones that print.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress


def read_stdin() -> str:
    """All of stdin as UTF-8 text; ValidationError when it is not UTF-8.

    Read as bytes: under the C/POSIX locale Python decodes stdin with ``surrogateescape``, so a
    stray ``\\xff`` would pass through as a lone surrogate and reach the output unnoticed.
    """
    from bot.errors import ValidationError

    buffer = getattr(sys.stdin, "buffer", None)
    try:
        return buffer.read().decode("utf-8") if buffer is not None else sys.stdin.read()
    except UnicodeDecodeError as exc:
        raise ValidationError(f"stdin: not valid UTF-8: {exc.reason}") from None


def write_stdout(text: str) -> None:
    """Write ``text`` to stdout and flush; stop quietly when the reader has gone.

    ``citecast resolve ... | head -1`` closes the pipe after one line: the rest of the output
    is unwanted, not an error, so the command still ends normally (status 0, nothing on stderr).
    """
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Point stdout at /dev/null: the interpreter flushes stdout again at exit, and that
        # flush would fail too and print "Exception ignored ... BrokenPipeError" on stderr.
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 file``, ``0 files``, ``2 files`` (``nouns``: an irregular plural)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def viewer_groups(values: list[str] | None) -> list[str]:
    """The groups of ``--audience`` flags: repeatable, each also a comma-separated list
    (``--audience staff,hr``), blank names dropped; a viewer without groups is public."""
    return [g.strip() for value in values or [] for g in value.split(",") if g.strip()]


def progress_bar(verb: str, show: bool) -> Progress:
    """A rich progress bar on stderr ("ingesting ━━━ 12/40 docs/a.md"), shown only when ``show``
    and stderr is a terminal: piped, a bar leaves a stray newline behind."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    errors = Console(file=sys.stderr)
    return Progress(
        TextColumn(verb),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}", style="dim"),
        console=errors,
        transient=True,
        disable=not show or not errors.is_terminal,
    )
