"""Commands whose reader goes away (``| head -1``) stop quietly: status 0, nothing on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.commands.output import plural
from bot.config import IndexSettings
from bot.knowledge.ingest import ingest
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
ANSWER = {"text": "Install it.[^1]", "citations": [{"n": 1, "source": {"id": "guide"}}]}


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A config with a store of one unanswered question, an index of one file, a sources file."""
    store = Store(tmp_path / "store.db")
    store.add_turn("c1", "web", "How do I reset my password?", {"text": "no", "citations": []})
    store.close()
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "install.md").write_text("# Install\n\nRun the installer to install citecast.\n")
    ingest([docs], IndexSettings(path=str(tmp_path / "index.db")))
    (tmp_path / "config.yaml").write_text(
        f"store:\n  path: {tmp_path / 'store.db'}\nindex:\n  path: {tmp_path / 'index.db'}\n"
    )
    (tmp_path / "s.json").write_text(json.dumps([{"id": "a", "title": "A"}, {"id": "b"}]))
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (["resolve", "--sources", "s.json"], "Run the installer [2]. Then [1]."),
        (["ask", "How do I install citecast?"], ""),
        (["report"], ""),
        (["report", "--json"], ""),
        (["render", "--channel", "all"], json.dumps(ANSWER)),  # the helper's first user
        (["eval", str(ROOT / "examples" / "eval" / "citations.jsonl")], ""),  # rich: status 1
        (["ingest", "docs"], ""),  # its summary went through rich too
        (["preview", "--out", "preview.html"], ""),  # print(): a BrokenPipeError traceback
    ],
    ids=["resolve", "ask", "report", "report-json", "render", "eval", "ingest", "preview"],
)
def test_a_closed_output_pipe_ends_the_command_quietly(
    workdir: Path, argv: list[str], stdin: str
) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the command writes a byte
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bot", *argv],
            input=stdin,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            cwd=workdir,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (0, "")


def test_plural() -> None:
    assert [plural(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert plural(1, "PDF page") == "1 PDF page"


@pytest.mark.parametrize(
    "argv",
    [["resolve", "--sources", "s.json"], ["render"], ["preview", "--answer", "-"]],
    ids=["resolve", "render", "preview"],
)
def test_stdin_that_is_not_utf8_is_refused_in_one_line(workdir: Path, argv: list[str]) -> None:
    # the C locale (no LANG) is where Python reads stdin with surrogateescape: the bytes would
    # otherwise pass through into the output
    done = subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        input=b'{"text": "Run \xff\xfe it"}',
        capture_output=True,
        check=False,
        cwd=workdir,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 2
    assert (
        done.stderr.decode() == f"citecast {argv[0]}: stdin: not valid UTF-8: invalid start byte\n"
    )
    assert done.stdout == b""
