"""The SQLite store: turns, dedupe keys, the outbox, rate limits and feedback (DESIGN §7).

One small file database (path from ``store.path``) shared by every connector. Calls are short
and synchronous behind one lock; async code may call them directly (each is a single indexed
statement) or through ``asyncio.to_thread`` for bulk work.

- Turns keep the question, the Answer JSON and the registry JSON, so a conversation reloads
  with the same numbers and a turn can be replayed.
- ``claim_once(scope, key)`` is the idempotency primitive: true the first time a key is seen.
- The outbox holds a reply before it is sent and marks it sent only after the platform
  accepted it, so a crash between the two resends rather than loses.
- ``take_rate_slot`` counts events per key in a sliding window (the email rate limit), so a
  restart does not reset a limit.
- ``remember_messages`` records which conversation each message the bot posted belongs to, so a
  reply to one of them continues that conversation however long it has grown
  (``conversation_of``).
- ``set_state``/``state`` keep small values a connector needs across restarts, per scope (an
  IMAP mailbox's start point; the replies to a Discord question, the latest thousands only).
- What only serves to deliver once (claims of delivered events, sent outbox replies, the
  records of the bot's messages) is pruned after the periods of ``store.retention`` (by
  default once no platform can deliver it again; ``bot.store_retention``): a few hundred rows
  at a time, at most hourly, after a write.

Every table is created with ``CREATE TABLE IF NOT EXISTS``, so opening a database made by an
older version adds the tables it lacks (such as ``message_conversations`` or ``state``) and
keeps its data.
A database holding other tables and no ``turns`` (another program's, or the search index) is
refused with StoreError before anything is written to it. Every failure to read or write (a
store another process keeps locked past ``busy_timeout`` seconds, a damaged file) is a
StoreError naming the file and SQLite's reason, which connectors catch; never a raw sqlite3
error.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bot.config import StoreSettings
from bot.store_base import StoreBase
from bot.store_retention import Retention
from bot.store_rows import (
    OutboxItem,
    Turn,
    outbox_item_from_row,
    turn_from_row,
)

Outcome = tuple[int, str, str, str, int | None]
"""A turn as ``citecast report`` counts it: id, channel, question, status, citations."""

FEEDBACK_VALUES = ("helpful", "not_helpful")
"""The votes a person can give an answer, on every channel (``add_feedback``'s ``value``)."""


class Store(StoreBase):
    """Thread-safe access to the citecast SQLite database (``bot.store_base`` opens it)."""

    @classmethod
    def from_settings(
        cls, settings: StoreSettings, *, clock: Callable[[], float] = time.time
    ) -> Store:
        """The store at ``store.path``, pruning with the periods of ``store.retention``: what
        every command that writes to the store opens (one that only reads never prunes)."""
        days = settings.retention
        retention = Retention(
            claim_days=days.claim_days,
            sent_days=days.sent_days,
            dead_days=days.dead_days,
            message_days=days.message_days,
        )
        return cls(settings.path, retention=retention, clock=clock)

    # -- conversations and turns -------------------------------------------------------------

    @staticmethod
    def new_conversation_id() -> str:
        """A fresh random conversation id."""
        return uuid.uuid4().hex

    def add_turn(
        self,
        conversation_id: str,
        channel: str,
        question: str,
        answer: dict[str, Any] | None = None,
        registry: dict[str, Any] | None = None,
        status: str = "done",
    ) -> int:
        """Store a turn and return its id (``status`` 'pending' for one still being answered)."""
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO turns (conversation_id, channel, question, answer_json,"
                " registry_json, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    conversation_id,
                    channel,
                    question,
                    None if answer is None else json.dumps(answer),
                    None if registry is None else json.dumps(registry),
                    status,
                    self._clock(),
                ),
            )
        self._maybe_prune()
        return int(cur.lastrowid or 0)

    def finish_turn(
        self,
        turn_id: int,
        answer: dict[str, Any] | None,
        registry: dict[str, Any] | None,
        status: str = "done",
    ) -> None:
        """Record the answer of a pending turn, or mark it ``failed``."""
        with self._tx() as db:
            db.execute(
                "UPDATE turns SET answer_json = ?, registry_json = ?, status = ? WHERE id = ?",
                (
                    None if answer is None else json.dumps(answer),
                    None if registry is None else json.dumps(registry),
                    status,
                    turn_id,
                ),
            )

    def turns(self, conversation_id: str, limit: int = 50) -> list[Turn]:
        """The conversation's turns, oldest first (at most the last ``limit``)."""
        with self._read() as db:
            rows = db.execute(
                "SELECT id, conversation_id, channel, question, answer_json, registry_json,"
                " status, created_at FROM turns WHERE conversation_id = ?"
                " ORDER BY id DESC LIMIT ?",
                (conversation_id, limit),
            ).fetchall()
        return [turn_from_row(row) for row in reversed(rows)]

    def turn(self, turn_id: int) -> Turn | None:
        """One turn by id, or None."""
        with self._read() as db:
            row = db.execute(
                "SELECT id, conversation_id, channel, question, answer_json, registry_json,"
                " status, created_at FROM turns WHERE id = ?",
                (turn_id,),
            ).fetchone()
        return None if row is None else turn_from_row(row)

    def fail_pending_turns(self) -> int:
        """Mark turns left 'pending' (by a crash or shutdown) as 'failed'; returns how many."""
        with self._tx() as db:
            cur = db.execute("UPDATE turns SET status = 'failed' WHERE status = 'pending'")
            return cur.rowcount

    # -- the bot's own messages -------------------------------------------------------------

    def remember_messages(
        self, channel: str, message_keys: Iterable[str], conversation_id: str
    ) -> None:
        """Record that the bot's messages ``message_keys`` (on ``channel``) belong to
        ``conversation_id``; recording a message again moves it to the latest conversation."""
        now = self._clock()
        rows = [(channel, key, conversation_id, now) for key in message_keys]
        with self._tx() as db:
            db.executemany(
                "INSERT OR REPLACE INTO message_conversations"
                " (channel, message_key, conversation_id, created_at) VALUES (?, ?, ?, ?)",
                rows,
            )
        self._maybe_prune()

    def conversation_of(self, channel: str, message_key: str) -> str | None:
        """The conversation a recorded bot message belongs to, or None when it has no record
        (sent before the record was kept, or by another store)."""
        with self._read() as db:
            row = db.execute(
                "SELECT conversation_id FROM message_conversations"
                " WHERE channel = ? AND message_key = ?",
                (channel, message_key),
            ).fetchone()
        return None if row is None else str(row[0])

    def forget_messages(self, channel: str, message_keys: Iterable[str]) -> None:
        """Drop the records of ``message_keys`` (on ``channel``); unknown keys are ignored."""
        rows = [(channel, key) for key in message_keys]
        with self._tx() as db:
            db.executemany(
                "DELETE FROM message_conversations WHERE channel = ? AND message_key = ?", rows
            )

    # -- connector state ---------------------------------------------------------------------

    def set_state(self, scope: str, key: str, value: str, *, keep: int | None = None) -> None:
        """Save ``value`` as the state ``(scope, key)``, replacing an earlier one; with ``keep``,
        only the ``keep`` latest saved keys of ``scope`` stay (older ones are deleted)."""
        with self._tx() as db:
            # REPLACE gives the row a new rowid above every other: rowid order is save order
            db.execute(
                "INSERT OR REPLACE INTO state (scope, key, value, updated_at) VALUES (?, ?, ?, ?)",
                (scope, key, value, self._clock()),
            )
            if keep is not None:
                db.execute(
                    "DELETE FROM state WHERE rowid IN (SELECT rowid FROM state WHERE scope = ?"
                    " ORDER BY rowid DESC LIMIT -1 OFFSET ?)",
                    (scope, max(keep, 1)),
                )

    def state(self, scope: str, key: str) -> str | None:
        """The state saved as ``(scope, key)``, or None (never saved, or pruned)."""
        with self._read() as db:
            row = db.execute(
                "SELECT value FROM state WHERE scope = ? AND key = ?", (scope, key)
            ).fetchone()
        return None if row is None else str(row[0])

    # -- idempotency -------------------------------------------------------------------------

    def take_rate_slot(self, scope: str, key: str, limit: int, window: float, now: float) -> bool:
        """Count one event for ``(scope, key)``; false when ``limit`` already happened in the
        last ``window`` seconds. Kept in the store, so a restart does not reset the count."""
        with self._tx() as db:
            db.execute("DELETE FROM rate_slots WHERE scope = ? AND at <= ?", (scope, now - window))
            (count,) = db.execute(
                "SELECT COUNT(*) FROM rate_slots WHERE scope = ? AND key = ?", (scope, key)
            ).fetchone()
            if count >= limit:
                return False
            db.execute(
                "INSERT INTO rate_slots (scope, key, at) VALUES (?, ?, ?)", (scope, key, now)
            )
            return True

    def release_rate_slot(self, scope: str, key: str) -> None:
        """Give back the newest slot of ``(scope, key)`` (the event did not happen after all)."""
        with self._tx() as db:
            db.execute(
                "DELETE FROM rate_slots WHERE rowid = (SELECT rowid FROM rate_slots"
                " WHERE scope = ? AND key = ? ORDER BY at DESC LIMIT 1)",
                (scope, key),
            )

    def claim_once(self, scope: str, key: str) -> bool:
        """True the first time ``(scope, key)`` is claimed, false on every later call."""
        with self._tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO dedupe (scope, key, created_at) VALUES (?, ?, ?)",
                (scope, key, self._clock()),
            )
        self._maybe_prune()
        return cur.rowcount == 1

    def is_claimed(self, scope: str, key: str) -> bool:
        """Whether ``(scope, key)`` has been claimed (and the claim not released or pruned)."""
        with self._read() as db:
            row = db.execute(
                "SELECT 1 FROM dedupe WHERE scope = ? AND key = ?", (scope, key)
            ).fetchone()
        return row is not None

    def release_claim(self, scope: str, key: str) -> None:
        """Give back a claim (what it claimed did not happen after all): the next
        :meth:`claim_once` of ``(scope, key)`` succeeds again."""
        with self._tx() as db:
            db.execute("DELETE FROM dedupe WHERE scope = ? AND key = ?", (scope, key))

    # -- outbox ------------------------------------------------------------------------------

    def enqueue(self, channel: str, payload: dict[str, Any], item_id: str | None = None) -> str:
        """Persist a reply before sending it; returns its id (idempotent on ``item_id``)."""
        item_id = item_id or uuid.uuid4().hex
        now = self._clock()
        with self._tx() as db:
            db.execute(
                "INSERT OR IGNORE INTO outbox (id, channel, payload_json, next_attempt_at,"
                " created_at) VALUES (?, ?, ?, ?, ?)",
                (item_id, channel, json.dumps(payload), now, now),
            )
        self._maybe_prune()
        return item_id

    def due(self, channel: str, now: float | None = None, limit: int = 20) -> list[OutboxItem]:
        """Pending replies of ``channel`` whose next attempt is due."""
        moment = self._clock() if now is None else now
        with self._read() as db:
            rows = db.execute(
                "SELECT id, channel, payload_json, status, attempts, next_attempt_at, last_error"
                " FROM outbox WHERE channel = ? AND status = 'pending' AND next_attempt_at <= ?"
                " ORDER BY created_at LIMIT ?",
                (channel, moment, limit),
            ).fetchall()
        return [outbox_item_from_row(row) for row in rows]

    def pending(self, channel: str) -> list[OutboxItem]:
        """Every pending reply of ``channel``, due or not."""
        return self.due(channel, now=float("inf"), limit=1_000_000)

    def outbox_item(self, item_id: str) -> OutboxItem | None:
        """One outbox entry by id."""
        with self._read() as db:
            row = db.execute(
                "SELECT id, channel, payload_json, status, attempts, next_attempt_at, last_error"
                " FROM outbox WHERE id = ?",
                (item_id,),
            ).fetchone()
        return None if row is None else outbox_item_from_row(row)

    def mark_sent(self, item_id: str) -> None:
        """The platform accepted the reply: never send it again."""
        with self._tx() as db:
            db.execute(
                "UPDATE outbox SET status = 'sent', sent_at = ? WHERE id = ?",
                (self._clock(), item_id),
            )

    def mark_failed_attempt(
        self, item_id: str, error: str, retry_in: float, max_attempts: int = 20
    ) -> None:
        """Record a failed send; retry after ``retry_in`` seconds, give up after max_attempts."""
        with self._tx() as db:
            db.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?,"
                " next_attempt_at = ?,"
                " status = CASE WHEN attempts + 1 >= ? THEN 'dead' ELSE status END"
                " WHERE id = ?",
                (error[:500], self._clock() + retry_in, max_attempts, item_id),
            )

    def postpone(self, item_id: str, error: str, retry_in: float) -> None:
        """Try an item again after ``retry_in`` seconds without counting a failed attempt (the
        platform only asked to wait: a rate limit says nothing about the reply)."""
        with self._tx() as db:
            db.execute(
                "UPDATE outbox SET last_error = ?, next_attempt_at = ? WHERE id = ?",
                (error[:500], self._clock() + retry_in, item_id),
            )

    # -- feedback ----------------------------------------------------------------------------

    def add_feedback(self, turn_id: int | None, channel: str, user: str | None, value: str) -> None:
        """Record a helpful / not helpful vote on a turn."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO feedback (turn_id, channel, user, value, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (turn_id, channel, user, value, self._clock()),
            )

    def feedback(self, turn_id: int) -> list[str]:
        """The votes recorded for a turn, oldest first."""
        with self._read() as db:
            rows = db.execute(
                "SELECT value FROM feedback WHERE turn_id = ? ORDER BY id", (turn_id,)
            ).fetchall()
        return [str(row[0]) for row in rows]

    # -- usage (citecast report) -------------------------------------------------------------

    def outcomes_since(self, since: float) -> list[Outcome]:
        """``(turn id, channel, question, status, citations)`` of every turn asked at or after
        ``since`` (Unix time), oldest first; ``citations`` counts the answer's citations (None
        without an answer). The answers themselves are not loaded."""
        return list(self.iter_outcomes_since(since))

    def iter_outcomes_since(self, since: float, page: int = 10_000) -> Iterator[Outcome]:
        """:meth:`outcomes_since` one page of ``page`` turns at a time, for a caller that sums
        them as they come: the store is locked while a page is read, never while the caller
        works, and a year of turns is never in memory at once."""
        after, names = 0, dict[str, str]()
        while True:
            with self._read() as db:
                rows = db.execute(
                    "SELECT id, channel, question, status,"
                    # a damaged answer counts as one without sources, not as the report's end
                    " CASE WHEN json_valid(answer_json)"
                    " THEN json_array_length(answer_json, '$.citations') END"
                    " FROM turns WHERE id > ? AND created_at >= ? ORDER BY id LIMIT ?",
                    (after, since, page),
                ).fetchall()
            # a channel and a status repeat on every turn: one string each, not one per turn
            for r in rows:
                yield (r[0], names.setdefault(r[1], r[1]), r[2], names.setdefault(r[3], r[3]), r[4])
            if len(rows) < page:
                return
            after = rows[-1][0]

    def votes_since(self, since: float) -> list[tuple[int | None, str, str]]:
        """``(turn id, channel, value)`` of every vote recorded at or after ``since``."""
        with self._read() as db:
            rows = db.execute(
                "SELECT turn_id, channel, value FROM feedback WHERE created_at >= ? ORDER BY id",
                (since,),
            ).fetchall()
        return [(row[0], str(row[1]), str(row[2])) for row in rows]


__all__ = ["FEEDBACK_VALUES", "OutboxItem", "Store", "Turn"]
