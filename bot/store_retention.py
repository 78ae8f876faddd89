"""How long the store keeps what only serves to deliver once (see ``bot.store``).

Turns, votes and connector state are kept: ``citecast report``, shared answers, replayed
turns and "one vote per answer" read them. What only protects a delivery goes once no
platform can deliver it again:

- claims of delivered events (``claim_once`` in the scopes of ``EXPIRING_CLAIMS``) after
  ``claim_days`` (60). Slack retries an event three times within about five minutes, a sending
  mail server gives up after about five days, and Discourse keeps a web hook event for
  redelivery from its admin page for 30 days (``retain_web_hook_events_period_days``). Claims
  in other scopes are kept: they say "one vote per answer" or "a turn is shared once" for turns
  that are themselves kept, and a Discord question can be edited years later (an edit of an
  answered question must not be answered a second time);
- outbox replies that were sent after ``sent_days`` (7), and ones given up (``dead``) after
  ``dead_days`` (30) since their last attempt, so they can still be looked at; pending ones
  are never deleted;
- the records of the bot's own messages (``remember_messages``) after ``message_days`` (90)
  since the message was recorded: a reply to an older one finds its conversation by walking
  the reply chain, as for a message recorded before the record existed.

The four periods are ``store.retention`` in config.yaml (``Store.from_settings``); a period
of 0 keeps that class of rows forever. Rate slots need nothing here:
``take_rate_slot`` deletes its scope's expired ones each time.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

DAY = 86_400.0

EXPIRING_CLAIMS = ("slack-event", "slack-message", "email-message", "discourse-post")
"""The ``claim_once`` scopes that only deduplicate a platform's deliveries."""

KEPT_MESSAGE_CHANNELS = ("email-imap-start",)
"""``message_conversations`` channels that are no messages: an earlier release kept each IMAP
mailbox's start point there (``email_imap_start`` moves it to the state when it reads it)."""


@dataclass(frozen=True)
class Retention:
    """The store's retention policy (days; 0 keeps that class of rows forever), and how
    pruning paces itself."""

    claim_days: float = 60.0
    sent_days: float = 7.0
    dead_days: float = 30.0
    message_days: float = 90.0
    every: float = 3600.0
    """Seconds between pruning rounds, while the last round found nothing more to delete."""
    batch: int = 500
    """Rows deleted per table per transaction: short enough never to hold an answer up."""


DEFAULT_RETENTION = Retention()


def prune_batch(db: sqlite3.Connection, now: float, keep: Retention) -> tuple[int, bool]:
    """Delete up to ``keep.batch`` expired rows of each table (inside the caller's
    transaction); returns how many went, and whether a table may hold more."""
    claims = ", ".join("?" * len(EXPIRING_CLAIMS))
    kept = ", ".join("?" * len(KEPT_MESSAGE_CHANNELS))
    # (days, table, condition, parameters); each has an index that finds its oldest rows first
    deletes: list[tuple[float, str, str, tuple[object, ...]]] = [
        (
            keep.claim_days,
            "dedupe",
            f"scope IN ({claims}) AND created_at < ?",
            (*EXPIRING_CLAIMS, now - keep.claim_days * DAY),
        ),
        (
            keep.sent_days,
            "outbox",
            "status = 'sent' AND sent_at < ?",
            (now - keep.sent_days * DAY,),
        ),
        (
            keep.dead_days,
            "outbox",
            "status = 'dead' AND next_attempt_at < ?",
            (now - keep.dead_days * DAY,),
        ),
        (
            keep.message_days,
            "message_conversations",
            f"created_at < ? AND channel NOT IN ({kept})",
            (now - keep.message_days * DAY, *KEPT_MESSAGE_CHANNELS),
        ),
    ]
    deleted, more = 0, False
    for days, table, condition, params in deletes:
        if days <= 0:
            continue  # kept forever
        cur = db.execute(
            f"DELETE FROM {table} WHERE rowid IN"  # noqa: S608 - names and conditions above
            f" (SELECT rowid FROM {table} WHERE {condition} LIMIT ?)",
            (*params, keep.batch),
        )
        deleted += cur.rowcount
        more = more or cur.rowcount >= keep.batch
    return deleted, more
