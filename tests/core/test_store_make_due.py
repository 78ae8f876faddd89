"""``Store.make_due``: a pending outbox item waiting for an event is sent at once when it comes."""

from __future__ import annotations

from pathlib import Path

from bot.store import Store


def test_a_waiting_item_is_made_due_without_counting_an_attempt(tmp_path: Path) -> None:
    now = [1000.0]
    store = Store(tmp_path / "s.db", clock=lambda: now[0])
    try:
        item = store.enqueue("discourse", {"part": 4}, item_id="r-4")
        store.mark_failed_attempt(item, "waiting for a reply", retry_in=600, max_attempts=48)
        assert store.due("discourse") == []
        now[0] = 1010.0
        assert store.make_due(item)
        (due,) = store.due("discourse")
        assert due.id == "r-4" and due.attempts == 1 and due.last_error == "waiting for a reply"
        assert due.next_attempt_at == 1010.0
    finally:
        store.close()


def test_only_a_pending_item_is_made_due(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    try:
        sent = store.enqueue("discourse", {}, item_id="sent")
        store.mark_sent(sent)
        dead = store.enqueue("discourse", {}, item_id="dead")
        store.mark_failed_attempt(dead, "refused", retry_in=0, max_attempts=1)
        assert not store.make_due(sent) and not store.make_due(dead)
        assert not store.make_due("missing")
        statuses = [item.status for i in (sent, dead) if (item := store.outbox_item(i))]
        assert statuses == ["sent", "dead"]
    finally:
        store.close()
