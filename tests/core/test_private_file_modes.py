"""The index and the store are private to the account that runs citecast.

Under the usual umask 022, ``.citecast/``, ``index.db``, ``citecast.db`` and their ``-wal``
and ``-shm`` files were created readable by every account on the host (0755 and 0644), so a
shared host's other users could read private documents and staff conversations. A folder
citecast creates is now 0700 and a database it creates 0600; what exists keeps its mode, with a
warning when every account can read it.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import ingest
from bot.private_files import readable_by_others
from bot.store import Store
from bot.store_lock import StoreLock
from tests.core.cli_runner import run_cli


@pytest.fixture(autouse=True)
def _usual_umask() -> Iterator[None]:
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _kb(tmp_path: Path) -> Path:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "pay.md").write_text("The walrus salary is 9000 euros.\n")
    return kb


def _write_with_a_reader_open(database: Path) -> None:
    """A write while another connection reads: SQLite keeps the -wal and -shm files."""
    reader = sqlite3.connect(database)
    writer = sqlite3.connect(database)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM sqlite_master").fetchall()
        writer.execute("CREATE TABLE IF NOT EXISTS probe (x)")
        writer.commit()
        for companion in ("-wal", "-shm"):
            assert _mode(Path(f"{database}{companion}")) == 0o600
    finally:
        reader.close()
        writer.close()


def test_ingest_creates_a_private_folder_and_index(tmp_path: Path) -> None:
    index = tmp_path / "site" / ".citecast" / "index.db"
    ingest([_kb(tmp_path)], IndexSettings(path=str(index)))
    assert _mode(index.parent) == 0o700
    assert _mode(index) == 0o600
    assert _mode(index.parent.parent) == 0o755  # a parent made on the way is the umask's
    _write_with_a_reader_open(index)


def test_an_existing_folder_keeps_its_mode(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o750)
    folder.chmod(0o750)
    index = folder / "index.db"
    ingest([_kb(tmp_path)], IndexSettings(path=str(index)))
    assert (_mode(folder), _mode(index)) == (0o750, 0o600)


def test_the_store_and_its_lock_create_a_private_folder_and_database(tmp_path: Path) -> None:
    path = tmp_path / "app" / ".citecast" / "citecast.db"
    lock = StoreLock(str(path))
    lock.acquire()
    lock.release()
    assert _mode(path.parent) == 0o700
    store = Store(path)
    try:
        store.add_turn(Store.new_conversation_id(), "web", "what is the walrus salary?")
    finally:
        store.close()
    assert _mode(path) == 0o600
    _write_with_a_reader_open(path)


def test_ingest_command_writes_a_private_index_and_a_rebuild_keeps_a_chosen_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = _kb(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert run_cli(monkeypatch, capsys, ["ingest", str(kb)])[0] == 0
    index = tmp_path / ".citecast" / "index.db"
    assert (_mode(index.parent), _mode(index)) == (0o700, 0o600)
    index.chmod(0o640)  # shared with a group on purpose
    assert run_cli(monkeypatch, capsys, ["ingest", "--rebuild", str(kb)])[0] == 0
    assert _mode(index) == 0o640


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every account can enter, as a home folder often is (pytest's are closed)."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        folder.chmod(0o755)
        assert all(p.stat().st_mode & stat.S_IXOTH for p in folder.parents)
        yield folder


def test_an_index_every_account_can_read_is_noted(open_folder: Path) -> None:
    index = open_folder / "index.db"
    ingest([_kb(open_folder)], IndexSettings(path=str(index)))
    index.chmod(0o644)  # as an older citecast made it
    report = ingest([open_folder / "kb"], IndexSettings(path=str(index)))
    assert [(n.path, n.reason) for n in report.notes] == [
        (
            str(index),
            f"readable by every account on this host (mode 0644); run `chmod 700 "
            f"{open_folder.resolve()}` (or `chmod 600` it and its -wal and -shm files)",
        )
    ]
    assert _mode(index) == 0o644  # not changed behind the owner's back
    index.chmod(0o600)
    assert ingest([open_folder / "kb"], IndexSettings(path=str(index))).notes == []


def test_a_store_every_account_can_read_is_warned_of(
    open_folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = open_folder / "citecast.db"
    sqlite3.connect(path).close()
    path.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="bot.store_base"):
        Store(path).close()
    assert [r.getMessage() for r in caplog.records] == [
        f"store {path} is readable by every account on this host (mode 0644); run `chmod 700 "
        f"{open_folder.resolve()}` (or `chmod 600` it and its -wal and -shm files)"
    ]
    assert readable_by_others(open_folder / "missing.db") is None
