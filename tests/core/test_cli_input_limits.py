"""Input that is endless or absent is one line and status 2, never a MemoryError or traceback.

Found in a QA pass of the CLI: ``citecast render < /dev/zero`` and ``citecast preview --answer
/dev/zero`` read until the memory ran out (MemoryError traceback), and a closed stdin (``<&-``)
was an AttributeError traceback in ``render``, ``resolve`` and ``preview --answer -``.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bot.cli import main

ANSWER = json.dumps({"text": "Herons wade.", "citations": []})
COMMANDS = {
    "render": ["render", "--channel", "web"],
    "resolve": ["resolve", "--sources", "s.json"],
    "preview": ["preview", "--answer", "-", "--out", "p.html"],
}


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "s.json").write_text("[]", encoding="utf-8")


def binary_stdin(data: bytes) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_stdin_over_the_limit_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    monkeypatch.setattr("bot.commands.output.MAX_INPUT_BYTES", 1_000_000)
    monkeypatch.setattr(sys, "stdin", binary_stdin(b" " * 1_000_001))
    assert main(COMMANDS[command]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"citecast {command}: stdin: larger than 1 MB\n")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_stdin_at_the_limit_is_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    data = ANSWER.encode().ljust(1_000_000)  # JSON allows the trailing spaces
    monkeypatch.setattr("bot.commands.output.MAX_INPUT_BYTES", 1_000_000)
    monkeypatch.setattr(sys, "stdin", binary_stdin(data))
    assert main(COMMANDS[command]) == 0
    assert capsys.readouterr().err == ""


def test_an_answer_file_over_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("bot.commands.output.MAX_INPUT_BYTES", 1_000_000)
    (tmp_path / "a.json").write_text(ANSWER.ljust(1_000_001), encoding="utf-8")
    assert main(["preview", "--answer", "a.json"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "citecast preview: a.json: larger than 1 MB\n")
    assert not (tmp_path / "preview.html").exists()


def test_an_endless_answer_file_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["preview", "--answer", "/dev/zero"]) == 2
    assert capsys.readouterr().err == "citecast preview: /dev/zero: larger than 50 MB\n"


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_closed_stdin_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # what Python sets when started with `<&-`
    assert main(COMMANDS[command]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"citecast {command}: no input: stdin is closed\n")
