"""Output that cannot be written is one line and status 2, and never clobbers an input.

Found in a QA pass of the CLI: every command printing to a full disk (``> /dev/full``) or a
closed stdout (``>&-``) ended in a traceback, and ``citecast preview --answer a.json --out
a.json`` overwrote the answer with the HTML page.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
ANSWER = {"text": "Install it.[^1]", "citations": [{"n": 1, "source": {"id": "guide"}}]}


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A config with an empty store, a folder of one document and a sources file."""
    Store(tmp_path / "store.db").close()
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "install.md").write_text("# Install\n\nRun the installer to install citecast.\n")
    (tmp_path / "config.yaml").write_text(
        f"store:\n  path: {tmp_path / 'store.db'}\nindex:\n  path: {tmp_path / 'index.db'}\n"
    )
    (tmp_path / "s.json").write_text(json.dumps([{"id": "a", "title": "A"}]))
    return tmp_path


def run_with_stdout(workdir: Path, argv: list[str], stdin: str, stdout: int | None) -> str:
    """Run the command with ``stdout`` as its fd 1 (None: closed); return stderr."""
    code = (
        "import os, sys\n"
        "if len(sys.argv) > 1 and sys.argv[1] == 'closed':\n"
        "    os.close(1); sys.stdout = None\n"
        "from bot.cli import main\n"
        "raise SystemExit(main(sys.argv[2:]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "closed" if stdout is None else "open", *argv],
        input=stdin,
        stdout=stdout if stdout is not None else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        cwd=workdir,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    return done.stderr


COMMANDS = [
    (["resolve", "--sources", "s.json"], "Run the installer [1]."),
    (["render", "--channel", "all"], json.dumps(ANSWER)),
    (["report"], ""),  # rich tables: the Console itself wrote to stdout
    (["eval", str(ROOT / "examples" / "eval" / "citations.jsonl")], ""),
    (["ingest", "docs"], ""),
    (["preview", "--out", "preview.html"], ""),
]
IDS = ["resolve", "render", "report", "eval", "ingest", "preview"]


@pytest.mark.parametrize(("argv", "stdin"), COMMANDS, ids=IDS)
def test_a_full_disk_on_stdout_is_one_line(workdir: Path, argv: list[str], stdin: str) -> None:
    full = os.open("/dev/full", os.O_WRONLY)
    try:
        err = run_with_stdout(workdir, argv, stdin, full)
    finally:
        os.close(full)
    assert (
        err == f"citecast {argv[0]}: cannot write the result to stdout: No space left on device\n"
    )


@pytest.mark.parametrize(("argv", "stdin"), COMMANDS[:2], ids=IDS[:2])
def test_a_closed_stdout_is_one_line(workdir: Path, argv: list[str], stdin: str) -> None:
    err = run_with_stdout(workdir, argv, stdin, None)
    assert err == f"citecast {argv[0]}: cannot write the result: stdout is closed\n"


@pytest.mark.parametrize("out", ["a.json", "./sub/../a.json", "link.json"])
def test_preview_refuses_to_overwrite_its_answer_file(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    out: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "sub").mkdir()
    answer = tmp_path / "a.json"
    answer.write_text(json.dumps(ANSWER), encoding="utf-8")
    (tmp_path / "link.json").symlink_to(answer)
    assert main(["preview", "--answer", "a.json", "--out", out]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"citecast preview: --out {out} is the --answer file itself\n"
    assert json.loads(answer.read_text(encoding="utf-8")) == ANSWER  # untouched
