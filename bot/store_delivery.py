"""The store's part that makes each event answered once and each reply sent once (``bot.store``).

- ``claim_once(scope, key)`` is the idempotency primitive: true the first time a key is seen,
  so a platform's redelivery of an event is not answered a second time.
- ``take_rate_slot`` counts events per key in a sliding window (the email rate limit), kept in
  the store so a restart does not reset a limit.
- The outbox holds a reply before it is sent and marks it sent only after the platform
  accepted it, so a crash between the two resends rather than loses.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from bot.store_base import StoreBase
from bot.store_rows import OutboxItem, outbox_item_from_row


class DeliveryStore(StoreBase):
    """Claims, rate slots and the outbox (one of the parts ``bot.store.Store`` is made of)."""

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

    def make_due(self, item_id: str) -> bool:
        """Make a pending item due now, keeping its attempts and last error (what it waited
        for has happened); returns whether a pending item was changed."""
        with self._tx() as db:
            cur = db.execute(
                "UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND status = 'pending'",
                (self._clock(), item_id),
            )
        return cur.rowcount == 1
