"""Usage errors are one line, as every other error of a command is; ``--help`` and
``--version`` that cannot be written say so, as a command's result does.

Found in a README-as-reference QA pass: ``--runs abc``, ``--numbering foo`` or ``ask --json
--channel slack`` printed two to five lines of usage before the reason, and ``citecast --help >
/dev/full`` exited 0 having written nothing (argparse drops the error).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["eval", "data.jsonl", "--runs", "abc"],
            "citecast eval: --runs: invalid int value: 'abc' (see citecast eval --help)",
        ),
        (
            ["ask", "--json", "--channel", "slack", "Why?"],
            "citecast ask: --channel: not allowed with argument --json (see citecast ask --help)",
        ),
        (
            ["resolve", "--sources", "s.json", "--numbering", "foo"],
            "citecast resolve: --numbering: invalid choice: 'foo' (choose from 'appearance', "
            "'registry') (see citecast resolve --help)",
        ),
        (
            ["ingest"],
            "citecast ingest: the following arguments are required: PATH "
            "(see citecast ingest --help)",
        ),
        (
            ["render", "--chanel", "slack"],
            "citecast render: unrecognized arguments: --chanel slack (did you mean --channel?) "
            "(see citecast render --help)",
        ),
        (["--bogus"], "citecast: unrecognized arguments: --bogus (see citecast --help)"),
    ],
    ids=["int", "exclusive", "choice", "required", "unrecognized", "top level"],
)
def test_a_usage_error_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr() == ("", f"{line}\n")


@pytest.mark.parametrize(
    ("argv", "prog"),
    [(["--help"], "citecast"), (["--version"], "citecast"), (["ask", "--help"], "citecast ask")],
)
def test_help_and_version_on_a_full_disk_are_one_line_and_status_2(
    argv: list[str], prog: str
) -> None:
    full = os.open("/dev/full", os.O_WRONLY)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bot", *argv],
            stdin=subprocess.DEVNULL,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            timeout=60,
        )
    finally:
        os.close(full)
    assert (done.returncode, done.stderr) == (
        2,
        f"{prog}: cannot write the result to stdout: No space left on device\n",
    )


def test_help_into_a_pipe_that_closes_ends_quietly() -> None:
    # as every command's result: `citecast --help | head -1` is no error
    done = subprocess.run(
        f"{sys.executable} -m bot --help | head -c 1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert (done.stdout, done.stderr) == ("u", "")
