"""Run ``citecast`` in-process with a given stdin: (exit status, stdout, stderr)."""

from __future__ import annotations

import io
import sys

import pytest

from bot.cli import main


def run_cli(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: str = "",
) -> tuple[int, str, str]:
    """``citecast ARGV`` with ``stdin`` as its standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err
