"""An index a newer citecast's reader read is refused, as after a downgrade.

Found on upgrade QA: an older citecast of the same schema (reader 14) served an index today's
reader ("18") wrote without a word, and its first ``citecast ingest kb`` made the files
today's reader had narrowed public again. This citecast must not do that to an index a newer
one wrote: ``serve``, ``ask``, ``ingest`` and ``ingest --if-missing`` (what ``make serve``
runs) refuse it in one line, status 2; ``ingest --rebuild`` builds it again, and says what
that means. The newer index is crafted as the next release would mark it: ``r<this + 1>:``.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge import ingest_file
from tests.core.serve_process import ROOT

THIS = int(ingest_file.READER_VERSION)
NEWER = THIS + 1


def refusal(index: Path) -> str:
    return (
        f"{index} was read by a newer citecast (reader {NEWER}; this one is {THIS}): upgrade "
        "citecast, or restore the index you backed up before upgrading; do not rebuild it "
        "with this citecast, which may read private files as public\n"
    )


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A config whose index a newer citecast read in part: one of its two files."""
    kb = tmp_path / "kb"
    _write(kb / "pay.md", "---\naudience: staff\n---\n# Pay\n\nIbis pay is monthly.\n")
    _write(kb / "faq.md", "# FAQ\n\nEgret answers are sent twice.\n")
    path = tmp_path / "config.yaml"
    index = tmp_path / "index.db"
    path.write_text(f"index:\n  path: {index}\nweb:\n  port: 0\n", encoding="utf-8")
    assert main(["--config", str(path), "ingest", str(kb)]) == 0
    conn = sqlite3.connect(index)
    try:
        conn.execute(
            "UPDATE files SET fingerprint = ? || substr(fingerprint, instr(fingerprint, ':') + 1) "
            "WHERE relpath = 'kb/pay.md'",
            (f"r{NEWER}:",),
        )
        conn.commit()
    finally:
        conn.close()
    return path


@pytest.mark.parametrize(
    "command",
    [["ask", "How is ibis pay sent?"], ["ingest", "KB"], ["ingest", "KB", "--if-missing"]],
    ids=["ask", "ingest", "--if-missing"],
)
def test_every_command_refuses_the_index_in_one_line(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    capsys.readouterr()
    words = [str(tmp_path / "kb") if word == "KB" else word for word in command]
    fingerprints_before = _fingerprints(tmp_path / "index.db")

    assert main(["--config", str(config), *words]) == 2

    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"citecast {command[0]}: {refusal(tmp_path / 'index.db')}"
    # nothing was re-read: the newer reader's file is as it wrote it
    assert _fingerprints(tmp_path / "index.db") == fingerprints_before


def test_serve_refuses_the_index_before_listening(config: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--config", str(config), "serve"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=30,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"citecast serve: {refusal(tmp_path / 'index.db')}"


def test_an_index_of_this_reader_and_older_ones_is_not_refused(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = sqlite3.connect(tmp_path / "index.db")
    try:
        # one file by this reader, one by an older one: reader 9 is older as a number, not as text
        conn.execute(
            "UPDATE files SET fingerprint = 'r9:' || fingerprint WHERE relpath LIKE '%pay%'"
        )
        conn.commit()
    finally:
        conn.close()
    capsys.readouterr()

    assert main(["--config", str(config), "ingest", str(tmp_path / "kb")]) == 0

    assert "1 re-read" in capsys.readouterr().out


def test_rebuild_reads_it_again_and_says_what_that_means(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()

    assert main(["--config", str(config), "ingest", "--rebuild", str(tmp_path / "kb")]) == 0

    out = capsys.readouterr().out
    assert (
        f"note on the index replaced: was read by a newer citecast (reader {NEWER}; this one "
        f"is {THIS}): files without an audience of their own kept the one it gave them, but a "
        "file this citecast reads as public is public now; check the private ones, or restore "
        "the index you backed up before upgrading\n"
    ) in out
    marks = {print_.split(":")[0] for print_ in _fingerprints(tmp_path / "index.db").values()}
    assert marks == {f"r{THIS}"}
    # the rebuilt index is this reader's: every command opens it again
    assert main(["--config", str(config), "ingest", str(tmp_path / "kb")]) == 0
    assert "2 unchanged" in capsys.readouterr().out


def _fingerprints(index: Path) -> dict[str, str]:
    """Each file's fingerprint, by its relpath."""
    conn = sqlite3.connect(index)
    try:
        rows = conn.execute("SELECT relpath, fingerprint FROM files").fetchall()
    finally:
        conn.close()
    return {str(relpath): str(fingerprint) for relpath, fingerprint in rows}
