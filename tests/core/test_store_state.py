"""The store's state table: small values a connector keeps across restarts, per scope, optionally
only the latest few of a scope; a store file of the previous release gains it when opened."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store import Store

# The tables exactly as the previous release (before the state table) created them.
PREVIOUS_RELEASE_SCHEMA = """
CREATE TABLE turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    question TEXT NOT NULL,
    answer_json TEXT,
    registry_json TEXT,
    status TEXT NOT NULL DEFAULT 'done',
    created_at REAL NOT NULL
);
CREATE INDEX turns_by_conversation ON turns (conversation_id, id);
CREATE TABLE dedupe (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE TABLE outbox (
    id TEXT PRIMARY KEY,
    channel TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL NOT NULL,
    last_error TEXT,
    created_at REAL NOT NULL,
    sent_at REAL
);
CREATE INDEX outbox_due ON outbox (channel, status, next_attempt_at);
CREATE TABLE rate_slots (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX rate_slots_by_key ON rate_slots (scope, key, at);
CREATE TABLE feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id INTEGER,
    channel TEXT NOT NULL,
    user TEXT,
    value TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE message_conversations (
    channel TEXT NOT NULL,
    message_key TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (channel, message_key)
);
"""


def previous_release_store(path: Path, messages: dict[tuple[str, str], str]) -> None:
    """A store file as the previous release left it: WAL mode, one turn, and ``messages`` as
    records of the bot's messages (``(channel, key) -> value``), written without this release."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(PREVIOUS_RELEASE_SCHEMA)
        db.execute(
            "INSERT INTO turns (conversation_id, channel, question, answer_json, status,"
            " created_at) VALUES ('c', 'web', 'old question', '{\"text\": \"old answer\"}',"
            " 'done', 1.0)"
        )
        db.executemany(
            "INSERT INTO message_conversations VALUES (?, ?, ?, 1.0)",
            [(channel, key, value) for (channel, key), value in messages.items()],
        )
    finally:
        db.close()


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    db.close()
    return names


def test_state_round_trips_across_reopen_per_scope_and_key(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    assert store.state("email-imap-start", "imap.example.org:993/bot/INBOX") is None
    store.set_state("email-imap-start", "imap.example.org:993/bot/INBOX", "7 120")
    store.set_state("email-imap-start", "imap.example.org:993/bot/Support", "9 1")
    store.set_state("discord-asked", "imap.example.org:993/bot/INBOX", "other scope")
    store.close()

    store = Store(path)
    assert store.state("email-imap-start", "imap.example.org:993/bot/INBOX") == "7 120"
    assert store.state("email-imap-start", "imap.example.org:993/bot/Support") == "9 1"
    assert store.state("discord-asked", "imap.example.org:993/bot/INBOX") == "other scope"
    store.set_state("email-imap-start", "imap.example.org:993/bot/INBOX", "8 1")  # replaced
    assert store.state("email-imap-start", "imap.example.org:993/bot/INBOX") == "8 1"
    assert store.state("email-imap-start", "elsewhere") is None


def test_keep_prunes_the_oldest_saved_keys_of_that_scope_only(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    store.set_state("other", "x", "stays")
    for n in range(1, 5):
        store.set_state("q", str(n), f"v{n}", keep=3)
    assert [store.state("q", str(n)) for n in range(1, 5)] == [None, "v2", "v3", "v4"]
    # saving a key again makes it the newest: the next prune takes the one after it
    store.set_state("q", "2", "v2 again", keep=3)
    store.set_state("q", "5", "v5", keep=3)
    assert [store.state("q", str(n)) for n in range(1, 6)] == [None, "v2 again", None, "v4", "v5"]
    assert store.state("other", "x") == "stays"
    store.set_state("q", "6", "v6")  # without keep nothing is pruned
    assert store.state("q", "4") == "v4"


def test_a_previous_release_store_file_opens_with_its_data_and_gains_the_state_table(
    tmp_path: Path,
) -> None:
    path = tmp_path / "citecast.db"
    previous_release_store(path, {("discord", "1:10"): "discord:1:9"})
    assert "state" not in tables(path)

    store = Store(path)
    (turn,) = store.turns("c")
    assert turn.question == "old question" and turn.answer == {"text": "old answer"}
    assert store.conversation_of("discord", "1:10") == "discord:1:9"
    assert store.state("email-imap-start", "INBOX") is None
    store.set_state("email-imap-start", "INBOX", "3 17")
    store.close()

    assert "state" in tables(path)
    store = Store(path)  # upgraded in place: opening it again changes nothing
    assert store.state("email-imap-start", "INBOX") == "3 17"
    assert [t.question for t in store.turns("c")] == ["old question"]


def test_forgotten_message_records_are_gone_and_only_they(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    store.remember_messages("email-imap-start", ["INBOX", "Support"], "1 1")
    store.forget_messages("email-imap-start", ["INBOX", "never recorded"])
    assert store.conversation_of("email-imap-start", "INBOX") is None
    assert store.conversation_of("email-imap-start", "Support") == "1 1"


def test_state_of_a_locked_store_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path, busy_timeout=0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError, match="database is locked"):
            store.set_state("q", "1", "v", keep=10)
    finally:
        other.execute("ROLLBACK")
        other.close()
    store.set_state("q", "1", "v", keep=10)
    assert store.state("q", "1") == "v"
