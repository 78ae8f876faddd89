"""``citecast report`` only reads the store: SQLite ``mode=ro``, whatever its version or rights."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.errors import StoreError
from bot.store import Store

CITED = {"text": "Install it.[^1]", "citations": [{"n": 1}]}

# The store's tables as the first release made them (git show 973847e:bot/store.py): no
# rate_slots, message_conversations or state tables, none of the newer indexes.
FIRST_SCHEMA = """
CREATE TABLE turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT, conversation_id TEXT NOT NULL, channel TEXT NOT NULL,
    question TEXT NOT NULL, answer_json TEXT, registry_json TEXT,
    status TEXT NOT NULL DEFAULT 'done', created_at REAL NOT NULL
);
CREATE INDEX turns_by_conversation ON turns (conversation_id, id);
CREATE TABLE dedupe (
    scope TEXT NOT NULL, key TEXT NOT NULL, created_at REAL NOT NULL, PRIMARY KEY (scope, key)
);
CREATE TABLE outbox (
    id TEXT PRIMARY KEY, channel TEXT NOT NULL, payload_json TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL NOT NULL, last_error TEXT, created_at REAL NOT NULL, sent_at REAL
);
CREATE INDEX outbox_due ON outbox (channel, status, next_attempt_at);
CREATE TABLE feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT, turn_id INTEGER, channel TEXT NOT NULL, user TEXT,
    value TEXT NOT NULL, created_at REAL NOT NULL
);
"""


def _config(tmp_path: Path, store: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(f"store:\n  path: '{store}'\n", encoding="utf-8")
    return path


def _report(config: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["--config", str(config), "report", "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in ``folder``: its bytes and modification time (ns)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def _tables(store: Path) -> list[str]:
    uri = f"file:{store}?mode=ro"
    with sqlite3.connect(uri, uri=True) as db:
        rows = db.execute("SELECT type, name FROM sqlite_master ORDER BY name").fetchall()
    return [f"{kind} {name}" for kind, name in rows]


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A folder made read-only (0o555) after the test fills it; its files 0o444. As root the
    modes stop nothing, so the tests also compare every byte and modification time."""
    folder = tmp_path / "ro"
    folder.mkdir()
    yield folder
    folder.chmod(0o755)  # tmp_path is cleaned up later
    for path in folder.iterdir():
        path.chmod(0o644)


def _lock_down(folder: Path) -> None:
    for path in folder.iterdir():
        path.chmod(0o444)
    folder.chmod(0o555)


def test_an_older_store_is_reported_and_left_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "old"
    folder.mkdir()
    store = folder / "store.db"
    with sqlite3.connect(store) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(FIRST_SCHEMA)
        db.execute(
            "INSERT INTO turns (conversation_id, channel, question, answer_json, created_at)"
            " VALUES ('c1', 'web', 'How do I install it?', ?, strftime('%s', 'now'))",
            (json.dumps(CITED),),
        )
        db.execute(
            "INSERT INTO feedback (turn_id, channel, value, created_at)"
            " VALUES (1, 'web', 'helpful', strftime('%s', 'now'))"
        )
    db.close()
    before, tables = _snapshot(folder), _tables(store)
    report = _report(_config(tmp_path, store), capsys)
    assert report["total"] == {
        "channel": "all", "asked": 1, "cited": 1, "without_sources": 0, "citations_dropped": 0,
        "small_talk": 0,
        "failed": 0, "unfinished": 0, "helpful": 1, "not_helpful": 0,
    }  # fmt: skip
    after = _snapshot(folder)
    assert after.get("store.db") == before["store.db"]  # no table, index or journal switch added
    assert _tables(store) == tables


def test_a_store_without_the_newer_tables_reads_them_as_empty(tmp_path: Path) -> None:
    store = tmp_path / "bare.db"
    with sqlite3.connect(store) as db:
        db.executescript(FIRST_SCHEMA.split("CREATE TABLE feedback")[0])  # not even feedback
    db.close()
    opened = Store.open_read_only(store)
    try:
        assert opened.votes_since(0) == []
        assert opened.state("imap", "inbox") is None
        assert opened.conversation_of("slack", "1.2") is None
    finally:
        opened.close()
    assert "table feedback" not in _tables(store)


def test_a_store_its_user_may_only_read_is_reported_and_unchanged(
    read_only: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = read_only / "store.db"
    writer = Store(store)
    writer.add_turn("c1", "slack", "Is it down?", status="failed")
    writer.close()
    # a rollback-journal file: a WAL switch on opening would change its header
    with sqlite3.connect(store) as db:
        db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    _lock_down(read_only)
    before = _snapshot(read_only)
    report = _report(_config(tmp_path, store), capsys)
    assert report["channels"] == [
        {
            "channel": "slack", "asked": 1, "cited": 0, "without_sources": 0,
            "citations_dropped": 0, "small_talk": 0,
            "failed": 1, "unfinished": 0, "helpful": 0, "not_helpful": 0,
        }
    ]  # fmt: skip
    assert _snapshot(read_only) == before
    assert stat.S_IMODE(store.stat().st_mode) == 0o444


@pytest.mark.parametrize("name", ["with space", "what?", "hash#tag", "per%20cent", "a%3Fb"])
def test_a_path_with_uri_characters_opens_that_very_file(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / name
    folder.mkdir()
    writer = Store(folder / f"{name}.db")
    writer.add_turn("c1", "web", "How?", CITED)
    writer.close()
    before = sorted(p.name for p in tmp_path.rglob("*"))
    report = _report(_config(tmp_path, folder / f"{name}.db"), capsys)
    assert report["total"]["asked"] == 1  # type: ignore[index]
    # no other file was made (a URI cut at "?" or "#" would open, or create, another one)
    assert sorted(p.name for p in tmp_path.rglob("*") if p.suffix == ".db") == sorted(
        p for p in before if p.endswith(".db")
    )


def test_a_store_being_written_is_read_with_what_is_in_its_write_ahead_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "live.db"
    writer = Store(store)  # the server: WAL mode, its connection kept open
    try:
        writer.add_turn("c1", "web", "First?", CITED)
        with writer._read() as db:
            db.execute("PRAGMA wal_autocheckpoint=0")  # the turns stay in store.db-wal
        writer.add_turn("c2", "web", "Second?", CITED)
        assert (tmp_path / "live.db-wal").stat().st_size > 0
        report = _report(_config(tmp_path, store), capsys)
        assert report["total"]["asked"] == 2  # type: ignore[index]
        writer.add_turn("c3", "web", "Third?", CITED)  # the server still writes afterwards
        assert len(writer.outcomes_since(0)) == 3
    finally:
        writer.close()


def test_a_read_only_store_refuses_every_write(tmp_path: Path) -> None:
    writer = Store(tmp_path / "s.db")
    writer.close()
    before = (tmp_path / "s.db").read_bytes()
    opened = Store.open_read_only(tmp_path / "s.db")
    try:
        with pytest.raises(StoreError, match="readonly"):
            opened.add_turn("c1", "web", "Write?")
    finally:
        opened.close()
    assert (tmp_path / "s.db").read_bytes() == before


def test_another_programs_database_is_refused_in_one_line(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "other.db") as db:
        db.execute("CREATE TABLE chunks (id INTEGER)")
    db.close()
    with pytest.raises(StoreError, match=r"not a citecast store .*chunks"):
        Store.open_read_only(tmp_path / "other.db")
    assert _tables(tmp_path / "other.db") == ["table chunks"]


def test_an_unreadable_path_is_one_store_error(tmp_path: Path) -> None:
    (tmp_path / "junk.db").write_bytes(b"not a database at all, just text" * 100)
    with pytest.raises(StoreError, match="cannot read the store"):
        Store.open_read_only(tmp_path / "junk.db")
    assert os.path.getsize(tmp_path / "junk.db") == 3200
