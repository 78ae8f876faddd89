"""``Store.count_channel_turns``: a web turn's position is one count of the ``turns_by_channel``
index, which reads no turn (nor its answer JSON), and a store made before the index gains it
when opened."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.connectors.web_conversation_positions import TurnPositions
from bot.store import Store

# a large answer, as long conversations hold: the count must not read it
BIG_ANSWER = {"text": "x" * 20_000}


def seed(store: Store, conversation: str, channel: str, count: int) -> list[int]:
    return [
        store.add_turn(conversation, channel, f"Q{n}?", BIG_ANSWER, {"sources": []})
        for n in range(count)
    ]


def test_the_count_is_of_the_channel_and_conversation_before_the_turn(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.db")
    try:
        conversation = store.new_conversation_id()
        web = seed(store, conversation, "web", 5)
        seed(store, conversation, "slack", 3)  # another channel's turns of it: not counted
        web += seed(store, conversation, "web", 2)
        seed(store, store.new_conversation_id(), "web", 4)  # another conversation's
        web.append(store.add_turn(conversation, "web", "Failed?", status="failed"))
        assert [store.count_channel_turns(conversation, "web", before=t) for t in web] == list(
            range(len(web))
        )
        assert store.count_channel_turns(conversation, "web", before=2**63 - 1) == len(web)
        assert store.count_channel_turns(conversation, "web", before=2**70) == len(web)
        assert store.count_channel_turns(conversation, "slack", before=web[-1]) == 3
        assert store.count_channel_turns("no-such-conversation", "web", before=web[-1]) == 0
    finally:
        store.close()


def test_a_position_is_one_count_that_reads_no_turn(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.db")
    try:
        conversation = store.new_conversation_id()
        ids = seed(store, conversation, "web", 300)
        seed(store, conversation, "slack", 50)
        statements: list[str] = []
        steps = [0]

        def step() -> int:
            steps[0] += 1
            return 0  # go on

        store._db.set_trace_callback(statements.append)
        store._db.set_progress_handler(step, 1)
        try:
            assert TurnPositions(store).before(conversation, "web", ids[-1]) == 299
        finally:
            store._db.set_trace_callback(None)
            store._db.set_progress_handler(None, 1)
        [statement] = statements
        assert statement.startswith("SELECT COUNT(*) FROM turns")
        # the index alone answers it: no turn row, so no answer JSON, is read
        plan = store._db.execute(
            "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM turns"
            " WHERE conversation_id = ? AND channel = ? AND id < ?",
            (conversation, "web", ids[-1]),
        ).fetchall()
        assert [row[-1] for row in plan] == [
            "SEARCH turns USING COVERING INDEX turns_by_channel"
            " (conversation_id=? AND channel=? AND id<?)"
        ]
        # a few steps of SQLite's machine per index entry (about 3); looking each turn up for
        # its channel takes about 6, reading the turns about 14
        assert steps[0] < 4 * 300
    finally:
        store.close()


def test_a_store_made_before_the_index_gains_it_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    store = Store(path)
    conversation = store.new_conversation_id()
    ids = seed(store, conversation, "web", 3)
    store.close()
    with sqlite3.connect(path) as db:  # as the previous release left it: no turns_by_channel
        db.execute("DROP INDEX turns_by_channel")
    db.close()
    store = Store(path)
    try:
        names = {row[0] for row in store._db.execute("SELECT name FROM sqlite_master")}
        assert "turns_by_channel" in names
        assert store.count_channel_turns(conversation, "web", before=ids[-1]) == 2
    finally:
        store.close()
