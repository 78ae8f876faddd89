"""Warnings a one-shot command logs while it runs, said on stderr like its other messages.

Reading an Answer may warn ("dropping unsafe URL from source 'a'", ``bot.source_model``). With no
handler configured, :mod:`logging` prints the bare message; every other line a command prints
starts with its name (``citecast render: …``), so a warning does too.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


class _Stderr(logging.StreamHandler[TextIO]):
    """Writes to the ``sys.stderr`` of the moment (a test may have replaced it)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.setStream(sys.stderr)
        super().emit(record)


@contextmanager
def command_warnings(command: str) -> Iterator[None]:
    """While the block runs, warnings from any logger go to stderr as one line each, prefixed
    ``citecast COMMAND: `` (and not also through logging's last-resort handler)."""
    handler = _Stderr(sys.stderr)
    handler.setLevel(logging.WARNING)
    # a message is one line: a value quoted in it is shown with repr(), never raw
    handler.setFormatter(logging.Formatter(f"citecast {command}: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
