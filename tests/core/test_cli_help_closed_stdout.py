"""``--help`` and ``--version`` with stdout closed (``>&-``) say so, status 2, as a command's
result does.

Found in a QA pass: with fd 1 closed Python sets ``sys.stdout`` to None, argparse then handed
the help to its fallback, stderr, and the command exited 0 as if the help had been shown.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[2]


def run_with_stdout_closed(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``citecast argv`` as a shell runs it after ``>&-``: no fd 1, ``sys.stdout`` None."""
    code = "import os, sys\nos.close(1)\nsys.stdout = None\nimport runpy\nrunpy.run_module('bot')\n"
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )


@pytest.mark.parametrize(
    ("argv", "prog"),
    [(["--help"], "citecast"), (["--version"], "citecast")]
    + [([name, "--help"], f"citecast {name}") for name in COMMANDS],
)
def test_help_and_version_with_stdout_closed_are_one_line_and_status_2(
    argv: list[str], prog: str
) -> None:
    done = run_with_stdout_closed(argv)
    assert (done.returncode, done.stderr) == (
        2,
        f"{prog}: cannot write the result: stdout is closed\n",
    )


def test_a_usage_error_with_stdout_closed_still_names_its_reason() -> None:
    # messages meant for stderr keep going there: only stdout's own output is refused
    done = run_with_stdout_closed(["--bogus"])
    assert (done.returncode, done.stderr) == (
        2,
        "citecast: unrecognized arguments: --bogus (see citecast --help)\n",
    )
