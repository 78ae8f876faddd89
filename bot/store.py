"""The SQLite store: turns, dedupe keys, the outbox, rate limits and feedback (DESIGN §7).

One small file database (path from ``store.path``) shared by every connector. Calls are short
and synchronous behind one lock; async code may call them directly (each is a single indexed
statement) or through ``asyncio.to_thread`` for bulk work. ``Store`` is made of parts, one
module each; everyone imports it (and its rows) from here.

- Turns keep the question, the Answer JSON and the registry JSON, so a conversation reloads
  with the same numbers and a turn can be replayed (this module).
- ``remember_messages`` records which conversation each message the bot posted belongs to, so a
  reply to one of them continues that conversation however long it has grown
  (``conversation_of``; this module).
- ``set_state``/``state`` keep small values a connector needs across restarts, per scope (an
  IMAP mailbox's start point; the replies to a Discord question, the latest thousands only;
  this module).
- ``claim_once(scope, key)`` is the idempotency primitive: true the first time a key is seen;
  ``take_rate_slot`` counts events per key in a sliding window (the email rate limit), so a
  restart does not reset a limit; the outbox holds a reply before it is sent and marks it sent
  only after the platform accepted it, so a crash between the two resends rather than loses
  (``bot.store_delivery``).
- Votes, and the turns and votes ``citecast report`` counts (``bot.store_usage``).
- Opening, transactions and errors (``bot.store_base``); the tables and the rows handed back
  (``bot.store_rows``); the store's own random id, which share links are signed for, made when
  the store is (or when an older store is first opened) and kept in it, and each turn's stamp,
  which its share link is signed for too (``bot.store_identity``).
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
from collections.abc import Callable, Iterable
from typing import Any

from bot.config import StoreSettings
from bot.store_delivery import DeliveryStore
from bot.store_identity import turn_stamp
from bot.store_retention import Retention
from bot.store_rows import OutboxItem, Turn, turn_from_row
from bot.store_usage import FEEDBACK_VALUES, Outcome, UsageStore

# above every turn id SQLite hands out (a signed 64-bit integer)
_NO_TURN_ABOVE = 2**63 - 1
_CHANNEL_TURNS = (
    "SELECT id, conversation_id, channel, question, answer_json, registry_json, status,"
    " created_at FROM turns WHERE conversation_id = ? AND channel = ? AND id > ? AND id < ?"
)
_LATEST_TURNS = _CHANNEL_TURNS + " ORDER BY id DESC LIMIT ?"
_EARLIEST_TURNS = _CHANNEL_TURNS + " ORDER BY id ASC LIMIT ?"
# answered by the index turns_by_channel alone: no turn row (nor its answer JSON) is read
_CHANNEL_TURNS_BEFORE = (
    "SELECT COUNT(*) FROM turns WHERE conversation_id = ? AND channel = ? AND id < ?"
)


class Store(DeliveryStore, UsageStore):
    """Thread-safe access to the citecast SQLite database (``bot.store_base`` opens it): its
    conversations and connector state here, claims and the outbox from ``DeliveryStore``, votes
    and usage from ``UsageStore``."""

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

    def channel_turns(
        self,
        conversation_id: str,
        channel: str,
        *,
        before: int | None = None,
        after: int = 0,
        limit: int = 50,
        oldest: bool = False,
    ) -> list[Turn]:
        """The conversation's turns of ``channel`` with ids between ``after`` and ``before``
        (both excluded), oldest first: the latest ``limit`` of them, or with ``oldest`` the
        earliest. One indexed read of those rows only, however long the conversation."""
        query = _EARLIEST_TURNS if oldest else _LATEST_TURNS
        upper = _NO_TURN_ABOVE if before is None else before
        with self._read() as db:
            rows = db.execute(query, (conversation_id, channel, after, upper, limit)).fetchall()
        found = [turn_from_row(row) for row in rows]
        return found if oldest else found[::-1]

    def count_channel_turns(self, conversation_id: str, channel: str, *, before: int) -> int:
        """How many of the conversation's turns of ``channel`` have an id below ``before``:
        one count over an index, whose cost does not depend on the answers' size."""
        upper = min(before, _NO_TURN_ABOVE)  # a larger int is an OverflowError in sqlite3
        with self._read() as db:
            row = db.execute(_CHANNEL_TURNS_BEFORE, (conversation_id, channel, upper)).fetchone()
        return int(row[0])

    def turn(self, turn_id: int) -> Turn | None:
        """One turn by id, or None (also for an id no turn can have: SQLite's ids are signed
        64-bit integers, and a larger one from a client must be a "no such turn", not an
        OverflowError)."""
        if not 0 < turn_id <= _NO_TURN_ABOVE:
            return None
        with self._read() as db:
            row = db.execute(
                "SELECT id, conversation_id, channel, question, answer_json, registry_json,"
                " status, created_at FROM turns WHERE id = ?",
                (turn_id,),
            ).fetchone()
        return None if row is None else turn_from_row(row)

    def turn_stamp(self, turn_id: int) -> str | None:
        """The stamp of the turn ``turn_id`` (``bot.store_identity.turn_stamp``), which its
        share key is signed for, or None when there is no such turn. Reads two columns of one
        row, never the answer."""
        if not 0 < turn_id <= _NO_TURN_ABOVE:
            return None
        with self._read() as db:
            row = db.execute(
                "SELECT conversation_id, created_at FROM turns WHERE id = ?", (turn_id,)
            ).fetchone()
        return None if row is None else turn_stamp(str(row[0]), float(row[1]))

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


__all__ = ["FEEDBACK_VALUES", "OutboxItem", "Outcome", "Store", "Turn"]
