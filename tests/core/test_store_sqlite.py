"""The SQLite store: turns, once-only claims, the outbox, feedback and message records survive a
reopen (and an older database opens with its data)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store import Store


def test_turns_round_trip_across_reopen(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    conversation = store.new_conversation_id()
    first = store.add_turn(conversation, "web", "q1", {"text": "a1"}, {"n": 1})
    pending = store.add_turn(conversation, "web", "q2", status="pending")
    store.add_turn("other", "web", "elsewhere")
    store.close()

    store = Store(path)
    assert store.fail_pending_turns() == 1
    turns = store.turns(conversation)
    assert [t.question for t in turns] == ["q1", "q2"]
    assert turns[0].id == first and turns[0].answer == {"text": "a1"}
    assert turns[0].registry == {"n": 1}
    assert turns[1].id == pending and turns[1].status == "failed"
    assert store.turn(first) == turns[0]
    assert store.turn(10_000) is None


def test_finish_turn_records_answer(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    turn = store.add_turn("c", "slack", "q", status="pending")
    store.finish_turn(turn, {"text": "done"}, {"sources": []})
    (only,) = store.turns("c")
    assert only.status == "done" and only.answer == {"text": "done"}


def test_claim_once_is_once_even_under_threads(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    results: list[bool] = []
    lock = threading.Lock()

    def claim() -> None:
        got = store.claim_once("slack-event", "Ev1")
        with lock:
            results.append(got)

    threads = [threading.Thread(target=claim) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results.count(True) == 1
    assert store.claim_once("slack-event", "Ev2") is True
    assert store.claim_once("email-message", "Ev1") is True


def test_a_released_claim_can_be_claimed_again_and_only_its_own(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    assert store.claim_once("slack-share", "7") is True
    assert store.claim_once("slack-share", "8") is True
    store.release_claim("slack-share", "7")
    assert store.claim_once("slack-share", "7") is True
    assert store.claim_once("slack-share", "7") is False
    assert store.claim_once("slack-share", "8") is False


def test_outbox_lifecycle(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    item = store.enqueue("email", {"to": "a@example.org"}, item_id="m1")
    assert store.enqueue("email", {"to": "changed"}, item_id="m1") == "m1"
    (due,) = store.due("email")
    assert due.payload == {"to": "a@example.org"} and due.attempts == 0

    store.mark_failed_attempt(item, "451 try later", retry_in=3600)
    assert store.due("email") == []
    assert [p.id for p in store.pending("email")] == ["m1"]
    store.close()

    store = Store(path)  # a restart keeps the pending reply
    (again,) = store.pending("email")
    assert again.attempts == 1 and again.last_error == "451 try later"
    store.mark_sent(item)
    assert store.pending("email") == []
    sent = store.outbox_item(item)
    assert sent is not None and sent.status == "sent"


def test_outbox_gives_up_after_max_attempts(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    item = store.enqueue("email", {})
    for _ in range(3):
        store.mark_failed_attempt(item, "boom", retry_in=0, max_attempts=3)
    dead = store.outbox_item(item)
    assert dead is not None and dead.status == "dead"
    assert store.pending("email") == []


def test_feedback(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    turn = store.add_turn("c", "slack", "q")
    store.add_feedback(turn, "slack", "U1", "helpful")
    store.add_feedback(turn, "slack", "U2", "not_helpful")
    assert store.feedback(turn) == ["helpful", "not_helpful"]


def test_message_conversations_round_trip_across_reopen(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    store.remember_messages("discord", ["1:10", "1:11"], "discord:1:9")
    store.remember_messages("slack", ["1:10"], "slack:elsewhere")
    store.remember_messages("discord", [], "discord:1:nothing")
    store.close()

    store = Store(path)
    assert store.conversation_of("discord", "1:10") == "discord:1:9"
    assert store.conversation_of("discord", "1:11") == "discord:1:9"
    assert store.conversation_of("slack", "1:10") == "slack:elsewhere"
    assert store.conversation_of("discord", "2:10") is None
    # recorded again (a message reused for a later turn): the latest conversation wins
    store.remember_messages("discord", ["1:11"], "discord:1:12")
    assert store.conversation_of("discord", "1:11") == "discord:1:12"
    assert store.conversation_of("discord", "1:10") == "discord:1:9"


def test_a_database_from_before_message_records_opens_with_its_data(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    turn = store.add_turn("c", "discord", "q", {"text": "a"})
    store.close()
    # the database as an older citecast left it: no message_conversations table
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE message_conversations")
    db.close()

    store = Store(path)
    (kept,) = store.turns("c")
    assert kept.id == turn and kept.answer == {"text": "a"}
    assert store.conversation_of("discord", "1:10") is None
    store.remember_messages("discord", ["1:10"], "c")
    assert store.conversation_of("discord", "1:10") == "c"


def test_a_database_of_other_tables_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    other = tmp_path / "index.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE chunks (id INTEGER PRIMARY KEY, text TEXT)")
    with pytest.raises(StoreError, match=r"not a citecast store .*chunks"):
        Store(other)
    with sqlite3.connect(other) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert tables == {"chunks"}
    empty = tmp_path / "empty.db"
    empty.touch()  # an empty file is a new store, not someone else's database
    Store(empty).close()
