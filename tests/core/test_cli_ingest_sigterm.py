"""SIGTERM during ``citecast ingest`` stops it as Ctrl-C does, and nothing half-built stays.

Found in a QA pass of the command line: ``timeout 60 citecast ingest docs/``, ``kill`` or a
service manager stopping a first run or a ``--rebuild`` ended the process at once (Python's
default for SIGTERM) and left the new index it was building, ``index.db.new-PID`` with its
``-wal`` and ``-shm`` (tens of MB for a few thousand files), beside the real one for ever: each
run has a name of its own, so nothing ever removed them. A run killed outright (SIGKILL) can
still leave one; the next ingest now removes those whose process is gone.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from tests.core.ingest_signals import FILES, config, docs, leftovers, signal_after

__all__ = ["config", "docs"]  # fixtures


class UnhandledSigtermError(Exception):
    """SIGTERM reached the test's own handler: ``ingest`` did not take it."""


@pytest.fixture(autouse=True)
def sigterm_guard() -> Iterator[None]:
    # Without ingest's handler, SIGTERM would end the whole test run: fail this test instead.
    def unhandled(signum: int, frame: object) -> None:
        raise UnhandledSigtermError

    previous = signal.signal(signal.SIGTERM, unhandled)
    try:
        yield
        assert signal.getsignal(signal.SIGTERM) is unhandled  # ingest put it back
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_sigterm_stops_a_first_run_between_files_and_leaves_nothing(
    tmp_path: Path,
    docs: Path,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    signal_after(monkeypatch, 4, [signal.SIGTERM])
    assert main(["--config", str(config), "ingest", str(docs)]) == 143
    assert capsys.readouterr() == (
        "",
        f"citecast ingest: interrupted after 4 of {FILES} files; no index was written\n",
    )
    assert not (tmp_path / "kb" / "index.db").exists()
    assert leftovers(tmp_path) == []
    monkeypatch.undo()
    assert main(["--config", str(config), "ingest", str(docs)]) == 0  # a second run works
    assert f"{FILES} files: {FILES} indexed" in capsys.readouterr().out


def test_a_second_sigterm_stops_at_once_and_still_removes_the_new_index(
    tmp_path: Path,
    docs: Path,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    capsys.readouterr()
    signal_after(monkeypatch, 4, [signal.SIGTERM, signal.SIGTERM])
    with pytest.raises(SystemExit) as stopped:
        main(["--config", str(config), "ingest", "--rebuild", str(docs)])
    assert stopped.value.code == 143
    assert leftovers(tmp_path) == []
    assert (tmp_path / "kb" / "index.db").exists()  # the old index, as it was


def test_a_new_index_left_by_a_killed_run_is_removed_by_the_next(
    tmp_path: Path, docs: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    alive = str(os.getppid())  # another ingest that is still at work: left alone
    recent = str(int(gone) + 1)  # gone, or at work in another container: written to just now
    two_hours_ago = time.time() - 7200
    for pid in (gone, alive, recent):
        for suffix in ("", "-wal", "-shm"):
            path = tmp_path / "kb" / f"index.db.new-{pid}{suffix}"
            path.write_bytes(b"half")
            if pid != recent:
                os.utime(path, (two_hours_ago, two_hours_ago))
    (tmp_path / "kb" / "index.db.new-notes.txt").write_text("not ours")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    kept = [
        f"index.db.new-{pid}{suffix}" for pid in (alive, recent) for suffix in ("", "-shm", "-wal")
    ]
    assert leftovers(tmp_path) == sorted([*kept, "index.db.new-notes.txt"])
