"""What the SQLite store keeps: its tables, and the rows it hands back (see ``bot.store``)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    question TEXT NOT NULL,
    answer_json TEXT,
    registry_json TEXT,
    status TEXT NOT NULL DEFAULT 'done',
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns (conversation_id, id);
-- a web turn's position is a count of this index alone (Store.count_channel_turns); opening a
-- store made before it builds it
CREATE INDEX IF NOT EXISTS turns_by_channel ON turns (conversation_id, channel, id);
CREATE TABLE IF NOT EXISTS dedupe (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (scope, key)
);
-- pruning (store_retention) finds the oldest rows by these three indexes
CREATE INDEX IF NOT EXISTS dedupe_by_age ON dedupe (scope, created_at);
CREATE TABLE IF NOT EXISTS outbox (
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
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (channel, status, next_attempt_at);
CREATE INDEX IF NOT EXISTS outbox_done ON outbox (status, sent_at);
CREATE TABLE IF NOT EXISTS rate_slots (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_slots_by_key ON rate_slots (scope, key, at);
CREATE TABLE IF NOT EXISTS feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id INTEGER,
    channel TEXT NOT NULL,
    user TEXT,
    value TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS message_conversations (
    channel TEXT NOT NULL,
    message_key TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (channel, message_key)
);
CREATE INDEX IF NOT EXISTS message_conversations_by_age ON message_conversations (created_at);
CREATE TABLE IF NOT EXISTS state (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, key)
);
-- a scope's rows in rowid (save) order, so pruning all but the latest few needs no sort
CREATE INDEX IF NOT EXISTS state_by_scope ON state (scope);
"""


@dataclass(frozen=True)
class Turn:
    """One stored question and its answer."""

    id: int
    conversation_id: str
    channel: str
    question: str
    answer: dict[str, Any] | None
    registry: dict[str, Any] | None
    status: str
    created_at: float


@dataclass(frozen=True)
class OutboxItem:
    """A reply waiting to be sent (or already sent)."""

    id: str
    channel: str
    payload: dict[str, Any]
    status: str
    attempts: int
    next_attempt_at: float
    last_error: str | None


def foreign_tables(db: sqlite3.Connection) -> list[str]:
    """The tables of another program's database named as the store (empty when it is ours)."""
    # Another program's database (or the search index) named as the store must be refused before
    # our tables are created in it; a database with a turns table is ours, of any version.
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    if not names or "turns" in names:
        return []
    return sorted(n for n in names if not n.startswith("sqlite_"))


def turn_from_row(row: tuple[Any, ...]) -> Turn:
    """A ``turns`` row (in column order) as a Turn."""
    return Turn(
        id=row[0],
        conversation_id=row[1],
        channel=row[2],
        question=row[3],
        answer=None if row[4] is None else json.loads(row[4]),
        registry=None if row[5] is None else json.loads(row[5]),
        status=row[6],
        created_at=row[7],
    )


def outbox_item_from_row(row: tuple[Any, ...]) -> OutboxItem:
    """An ``outbox`` row (in column order) as an OutboxItem."""
    return OutboxItem(
        id=row[0],
        channel=row[1],
        payload=json.loads(row[2]),
        status=row[3],
        attempts=row[4],
        next_attempt_at=row[5],
        last_error=row[6],
    )
