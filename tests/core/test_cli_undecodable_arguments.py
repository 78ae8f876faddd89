"""An argument the shell passed as bytes that are not UTF-8 is refused in one line.

Found in a QA pass of the command line: ``citecast ingest docs --audience $'staff\\xff'`` ended
in a UnicodeEncodeError traceback (status 1) once the first file was fingerprinted; ``ask``,
``render`` and ``resolve`` answered for a group nobody is in, and ``--public-base-url`` with
such a byte built no links, all without a word. Python passes the bytes on as lone surrogates
(``\\udcff``), as these tests do.
"""

from __future__ import annotations

import json
import sys
from io import BytesIO, TextIOWrapper
from pathlib import Path

import pytest

from bot.cli import main

BAD = "st\udcffaff"
ANSWER = {"text": "Install it.[^1]", "citations": [{"n": 1, "source": {"id": "guide"}}]}


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "install.md").write_text("# Install\n\nRun the installer.\n")
    (tmp_path / "sources.json").write_text('[{"id": "guide", "title": "Guide"}]')
    return tmp_path


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", TextIOWrapper(BytesIO(text.encode()), encoding="utf-8"))


def test_ingest_refuses_the_audience_before_writing_an_index(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ingest", "docs", "--audience", BAD]) == 2
    assert capsys.readouterr() == ("", "citecast ingest: --audience: not valid UTF-8\n")
    assert not (folder / ".citecast" / "index.db").exists()


@pytest.mark.parametrize(
    ("argv", "stdin", "expected"),
    [
        (["ask", "How do I install it?", "--audience", BAD], "", "ask: --audience"),
        (["render", "--audience", "staff", BAD], json.dumps(ANSWER), "render: --audience"),
        (
            ["resolve", "--sources", "sources.json", "--audience", BAD],
            "Install it [1].",
            "resolve: --audience",
        ),
        (
            ["render", "--public-base-url", f"https://{BAD}.com"],
            json.dumps(ANSWER),
            "render: --public-base-url",
        ),
        (
            ["preview", "--public-base-url", f"https://{BAD}.com", "--out", "-"],
            "",
            "preview: --public-base-url",
        ),
    ],
    ids=["ask", "render", "resolve", "render-url", "preview-url"],
)
def test_every_command_refuses_it_in_one_line(
    argv: list[str],
    stdin: str,
    expected: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if argv[0] == "ask":
        assert main(["ingest", "docs"]) == 0
        capsys.readouterr()
    _stdin(monkeypatch, stdin)
    assert main(argv) == 2
    assert capsys.readouterr() == ("", f"citecast {expected}: not valid UTF-8\n")
