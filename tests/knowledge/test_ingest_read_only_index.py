"""An index the user cannot write (or, for reading, whose folder they cannot write) is named in
one line with the reason, never taken for a damaged index to rebuild.

Root writes anything, so as root the command runs as ``nobody`` (``setpriv``); the scratch
folder is then one that user can enter, under the system's temporary folder.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import ingest

ROOT = Path(__file__).resolve().parents[2]
AS_ROOT = os.geteuid() == 0
OTHER_USER = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if AS_ROOT else []


@pytest.fixture
def scratch() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="citecast-ro-"))
    folder.chmod(0o755)
    (folder / "kb").mkdir()
    (folder / "kb" / "guide.md").write_text("# Guide\n\nHeron facts.\n", encoding="utf-8")
    (folder / "idx").mkdir()
    (folder / "config.yaml").write_text(
        f"index:\n  path: {folder / 'idx' / 'index.db'}\n"
        f"store:\n  path: {folder / 'store' / 'store.db'}\n",
        encoding="utf-8",
    )
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    try:
        yield folder
    finally:
        for path in (folder, *folder.rglob("*")):
            if path.is_dir():
                path.chmod(0o755)  # so the cleanup can remove what is inside
        shutil.rmtree(folder)


def _citecast(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*OTHER_USER, sys.executable, "-m", "bot", "--config", str(folder / "config.yaml"), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=folder,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(folder)},
        timeout=120,
    )


def _ingest_as_owner(folder: Path) -> Path:
    index = folder / "idx" / "index.db"
    ingest([folder / "kb"], IndexSettings(path=str(index)))
    return index


def test_a_first_ingest_into_a_read_only_folder_names_the_folder(scratch: Path) -> None:
    (scratch / "idx").chmod(0o555)
    done = _citecast(scratch, "ingest", str(scratch / "kb"))
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith(f"citecast ingest: cannot open {scratch / 'idx' / 'index.db'} ")
    assert line.endswith(
        f"; the folder {scratch / 'idx'} is not writable for this user: "
        "make it writable or set index.path"
    )


def test_an_update_of_a_read_only_index_says_it_is_read_only(scratch: Path) -> None:
    index = _ingest_as_owner(scratch)
    for path in index.parent.iterdir():
        path.chmod(0o444)  # owned by root as root: read-only for nobody either way
    (scratch / "idx").chmod(0o777 if AS_ROOT else 0o755)
    (scratch / "kb" / "guide.md").write_text("# Guide\n\nHeron and egret facts.\n")
    done = _citecast(scratch, "ingest", str(scratch / "kb"))
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith(f"citecast ingest: cannot write {index}: ")
    assert line.endswith(
        f"; {index} is read-only for this user: make it writable or set index.path"
    )


def test_an_index_copied_alone_into_a_read_only_folder_is_not_called_damaged(
    scratch: Path,
) -> None:
    index = _ingest_as_owner(scratch)
    conn = sqlite3.connect(index)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the file, as a copy of it alone
    conn.close()
    index.chmod(0o644)  # made 0600 (bot.private_files): the copy is one its reader may read
    for leftover in (Path(f"{index}-wal"), Path(f"{index}-shm")):
        leftover.unlink(missing_ok=True)
    (scratch / "idx").chmod(0o555)
    done = _citecast(scratch, "ask", "heron")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert "not a citecast index" not in line and "rebuild" not in line
    assert line.startswith(f"citecast ask: cannot read {index}: ")
    assert line.endswith(
        f"; the folder {index.parent} is not writable for this user, and SQLite must create "
        "index.db-wal and index.db-shm there to read the index: make the folder writable "
        "for this user"
    )


@pytest.mark.parametrize(
    ("index_path", "reason"),
    [
        (
            "kb/guide.md/index.db",
            "{tmp}/kb/guide.md is a file, not a folder: set index.path to a file in a folder",
        ),
        ("kb", "{tmp}/kb is a folder: set index.path to a file name"),
    ],
)
def test_an_index_path_that_cannot_be_a_file_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], index_path: str, reason: str
) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "guide.md").write_text("# Guide\n\nHeron facts.\n", encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / index_path}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(tmp_path / "kb")]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("citecast ingest: cannot open ")
    assert line.endswith(reason.format(tmp=tmp_path))
    assert "Errno" not in line  # Python's "[Errno 17] File exists: '…'" said it first
