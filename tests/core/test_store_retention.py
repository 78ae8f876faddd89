"""The store prunes what only serves to deliver once, on real SQLite files, with time passed in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.connectors import discourse, email, slack, slack_interactions, web_turns
from bot.connectors.discord_history import STORE_CHANNEL
from bot.connectors.email_imap_start import StartPoints
from bot.store import Store
from bot.store_retention import DAY, EXPIRING_CLAIMS, Retention


class Clock:
    """The time the store sees, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def days_later(self, days: float) -> None:
        self.now += days * DAY


def rows(path: str | Path, table: str) -> int:
    with sqlite3.connect(path) as db:
        (count,) = db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()
    return int(count)


def test_delivery_claims_go_after_sixty_days_and_votes_shares_and_discord_stay(
    tmp_path: Path,
) -> None:
    path, clock = tmp_path / "store.db", Clock()
    store = Store(path, clock=clock)
    kept = [("web-feedback", "7"), ("slack-feedback", "7:U1"), ("slack-share", "7")]
    kept.append(("discord-message", "1234"))  # an edit may come years later
    delivered = [(scope, f"{scope}-1") for scope in EXPIRING_CLAIMS]
    for scope, key in delivered + kept:
        assert store.claim_once(scope, key)
    clock.days_later(59)
    assert store.claim_once("slack-event", "a later event")  # a write: pruning runs
    assert not any(store.claim_once(scope, key) for scope, key in delivered)
    store.close()

    clock.days_later(2)
    store = Store(path, clock=clock)  # a restart keeps the schedule honest: due at once
    assert store.claim_once("slack-event", "another event")
    assert all(store.claim_once(scope, key) for scope, key in delivered)  # pruned
    assert not any(store.claim_once(scope, key) for scope, key in kept)
    assert not store.claim_once("slack-event", "a later event")  # 2 days old: kept


def test_the_pruned_scopes_are_the_connectors_delivery_scopes() -> None:
    assert set(EXPIRING_CLAIMS) == {
        slack.EVENT_SCOPE,
        slack.MESSAGE_SCOPE,
        email.DEDUPE_SCOPE,
        discourse.DEDUPE_SCOPE,
    }
    for kept in (web_turns.FEEDBACK_SCOPE, slack_interactions.FEEDBACK_SCOPE):
        assert kept not in EXPIRING_CLAIMS
    assert slack_interactions.SHARE_SCOPE not in EXPIRING_CLAIMS


def test_sent_replies_go_after_a_week_dead_ones_after_a_month_pending_ones_never(
    tmp_path: Path,
) -> None:
    path, clock = tmp_path / "store.db", Clock()
    store = Store(path, clock=clock)
    sent = store.enqueue("slack", {"text": "sent"})
    store.mark_sent(sent)
    dead = store.enqueue("email", {"text": "refused"})
    store.mark_failed_attempt(dead, "550 no such user", retry_in=0, max_attempts=1)
    waiting = store.enqueue("discourse", {"raw": "the forum is down"})

    clock.days_later(8)
    store.enqueue("slack", {"text": "a new reply"})
    assert store.outbox_item(sent) is None
    dead_item = store.outbox_item(dead)
    assert dead_item is not None and dead_item.last_error == "550 no such user"

    clock.days_later(30)
    store.enqueue("slack", {"text": "one more"})
    assert store.outbox_item(dead) is None
    assert [item.id for item in store.pending("discourse")] == [waiting]


def test_records_of_the_bots_messages_go_after_ninety_days_but_not_a_legacy_start_point(
    tmp_path: Path,
) -> None:
    path, clock = tmp_path / "store.db", Clock()
    store = Store(path, clock=clock)
    store.remember_messages(STORE_CHANNEL, ["1:10", "1:11"], "discord:1:9")
    # an earlier release kept an IMAP mailbox's start point among these records
    store.remember_messages(StartPoints.LEGACY_CHANNEL, ["INBOX"], "7 100")
    clock.days_later(89)
    store.remember_messages(STORE_CHANNEL, ["1:11"], "discord:1:9")  # recorded again: renewed
    clock.days_later(2)
    store.remember_messages(STORE_CHANNEL, ["1:12"], "discord:1:9")
    assert store.conversation_of(STORE_CHANNEL, "1:10") is None
    assert store.conversation_of(STORE_CHANNEL, "1:11") == "discord:1:9"
    assert StartPoints(store).get("INBOX") == (7, 100)


def test_pruning_goes_batch_by_batch_and_rests_an_hour_once_done(tmp_path: Path) -> None:
    path, clock = tmp_path / "store.db", Clock()
    store = Store(path, clock=clock, retention=Retention(batch=4))
    for n in range(10):
        store.claim_once("slack-event", f"old-{n}")
    assert rows(path, "dedupe") == 10
    clock.days_later(61)
    store.claim_once("slack-event", "new-1")  # one batch of 4 (the new claim stays)
    assert rows(path, "dedupe") == 7
    store.claim_once("slack-event", "new-2")  # the batch was full: the next write goes on
    assert rows(path, "dedupe") == 4
    store.claim_once("slack-event", "new-3")  # 2 left: done, next round in an hour
    assert rows(path, "dedupe") == 3
    clock.now -= 61 * DAY  # claims made "in the past" are old at once...
    store.claim_once("slack-event", "back-dated")
    clock.now += 61 * DAY
    store.claim_once("slack-event", "new-4")  # ...but wait for the next round
    assert rows(path, "dedupe") == 5
    clock.now += 3600
    store.claim_once("slack-event", "new-5")
    assert rows(path, "dedupe") == 5  # back-dated one gone, new-5 added


def test_prune_deletes_everything_due_at_once(tmp_path: Path) -> None:
    path, clock = tmp_path / "store.db", Clock()
    store = Store(path, clock=clock, retention=Retention(batch=3))
    for n in range(10):
        store.claim_once("email-message", f"<{n}@example.com>")
    clock.days_later(61)
    assert store.prune() == 10
    assert rows(path, "dedupe") == 0


def test_a_store_without_retention_keeps_everything(tmp_path: Path) -> None:
    path, clock = tmp_path / "store.db", Clock()
    store = Store(path, clock=clock, retention=None)
    store.claim_once("slack-event", "Ev1")
    clock.days_later(1000)
    store.claim_once("slack-event", "Ev2")
    assert store.prune() == 0
    assert rows(path, "dedupe") == 2


def test_a_failing_prune_never_fails_the_write_that_triggered_it(tmp_path: Path) -> None:
    path, clock = tmp_path / "store.db", Clock()
    store = Store(path, clock=clock)
    assert store.claim_once("slack-event", "Ev1")
    with sqlite3.connect(path) as other:
        other.execute(
            "CREATE TRIGGER no_deletes BEFORE DELETE ON dedupe"
            " BEGIN SELECT RAISE(ABORT, 'deletes refused'); END"
        )
    clock.days_later(61)
    # the claim itself is committed and reported: pruning fails apart, and is logged
    assert store.claim_once("slack-event", "Ev2")
    assert not store.claim_once("slack-event", "Ev2")
    assert rows(path, "dedupe") == 2


def test_a_store_opened_as_the_server_opens_it_drops_claims_two_months_old(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.db"
    store = Store(path)
    for n in range(10):
        assert store.claim_once("slack-event", f"Ev{n}")
    store.close()
    with sqlite3.connect(path) as db:  # answered two months ago
        db.execute("UPDATE dedupe SET created_at = created_at - 61 * 86400")
    store = Store(path)
    assert store.claim_once("slack-event", "Ev-today")
    assert rows(path, "dedupe") == 1
