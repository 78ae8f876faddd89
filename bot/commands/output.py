"""What commands print: their result on stdout, and counted nouns in their summaries.

Not a command itself (``bot.cli.COMMANDS`` lists those); shared by the ones that print.
"""

from __future__ import annotations

import os
import sys


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
