"""``citecast ask`` refuses a question it could not print or render, in one line.

Found in a QA pass of the CLI: bytes that are not UTF-8 in the question reach ``sys.argv`` as
lone surrogates (``\\udcff``); ``--channel email`` then failed with a UnicodeEncodeError
traceback while encoding the subject.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("channel", [[], ["--channel", "email"], ["--json"]])
def test_a_question_that_is_not_utf8_is_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    channel: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    assert main(["ask", "install \udcff?", *channel]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "citecast ask: question: not valid UTF-8\n")


def test_undecodable_bytes_from_the_shell_are_refused(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "install.md").write_text("# Install\n\nRun the installer.\n")
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "bot"]
    subprocess.run([*command, "ingest", "docs"], cwd=tmp_path, env=env, check=True, timeout=60)
    done = subprocess.run(
        [*command, "ask", b"How do I install \xff?", "--channel", "email"],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        check=False,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == b"citecast ask: question: not valid UTF-8\n"
