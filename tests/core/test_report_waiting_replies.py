"""``citecast report``: an answer still waiting in a channel's outbox is pending, not answered.

A connector stores its turn ``done`` once the answer is handed to the outbox; while the reply
waits there (a Discourse reply held by a rate limit, a Slack answer queued after a 429 or a
500), the asker has not got it, so the report counts it as ``unfinished`` (the table's
*pending*). Once sent it is answered; once dropped (``dead``) the connector fails its turn.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store
from bot.usage_report import ChannelUsage, build_report
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

CITED = {"text": "Install it.[^1]", "citations": [{"n": 1}]}
NOTHING = {"text": "I could not find anything about that in the knowledge base.", "citations": []}


def usage(store: Store, channel: str) -> ChannelUsage:
    (found,) = [u for u in build_report(store, 0.0, 30.0).channels if u.channel == channel]
    return found


def reply(turn_id: object, part: int = 1) -> dict[str, object]:
    """A Discourse reply as the outbox holds it (``bot.connectors.discourse_answer``)."""
    return {"topic_id": 7, "raw": f"Part {part}", "post_id": 70, "part": part, "turn_id": turn_id}


def test_a_reply_held_in_the_outbox_is_pending_until_sent(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.db")
    turn = store.add_turn("c1", "discourse", "How do I install it?", CITED)
    # two posts; the rate limit holds the second after the first went out
    first = store.enqueue("discourse", reply(turn), item_id="discourse-70")
    second = store.enqueue("discourse", reply(turn, 2), item_id="discourse-70-2")
    store.mark_sent(first)
    store.postpone(second, "rate limited: wait 70 s", retry_in=70.0)
    held = usage(store, "discourse")
    assert (held.asked, held.cited, held.unfinished) == (1, 0, 1)
    store.mark_sent(second)
    sent = usage(store, "discourse")
    store.close()
    assert (sent.asked, sent.cited, sent.unfinished) == (1, 1, 0)


def test_a_waiting_answer_without_sources_is_not_listed_as_unanswered_yet(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "store.db")
    turn = store.add_turn("c1", "discourse", "Is there a dark mode?", NOTHING)
    store.enqueue("discourse", reply(turn))
    report = build_report(store, 0.0, 30.0)
    store.close()
    assert (report.total.without_sources, report.total.unfinished) == (0, 1)
    assert report.unanswered == ()


def test_a_dropped_reply_is_not_pending(tmp_path: Path) -> None:
    """Given up (``dead``): the connector records the turn failed (``fail_queued_turn``); a
    turn an item was dropped for is never counted pending on the item's account."""
    store = Store(tmp_path / "store.db")
    turn = store.add_turn("c1", "discourse", "How do I install it?", CITED)
    item = store.enqueue("discourse", reply(turn))
    store.mark_failed_attempt(item, "topic closed", 0.0, max_attempts=1)
    kept = usage(store, "discourse")
    store.finish_turn(turn, CITED, None, status="failed")
    failed = usage(store, "discourse")
    store.close()
    assert (kept.cited, kept.unfinished) == (1, 0)
    assert (failed.failed, failed.unfinished) == (1, 0)


def test_only_the_turn_an_item_carries_is_pending(tmp_path: Path) -> None:
    """Items without a turn id (an older version's, a question kept to answer), with a turn id
    that is not an integer, or with a damaged payload name no turn, and stop nothing."""
    store = Store(tmp_path / "store.db")
    turns = [store.add_turn(f"c{i}", "slack", f"Question {i}?", CITED) for i in range(5)]
    store.enqueue("slack", {"channel": "C1", "text": "an older version's reply"})
    store.enqueue("slack", {"channel": "C1", "turn_id": True})  # true is not turn 1
    store.enqueue("slack", {"channel": "C1", "turn_id": float(turns[1])})
    store.enqueue("slack", {"channel": "C1", "turn_id": str(turns[2])})
    store.enqueue("slack", {"channel": "C1", "turn_id": turns[3]})
    store.enqueue("slack-questions", {"event_id": "Ev1", "text": "Question 4?"})
    store.close()
    with sqlite3.connect(tmp_path / "store.db") as db:
        db.execute(
            "INSERT INTO outbox (id, channel, payload_json, next_attempt_at, created_at)"
            " VALUES ('broken', 'slack', '{\"turn_id\": 5', 0, 0)"
        )
    store = Store(tmp_path / "store.db")
    slack = usage(store, "slack")
    assert store.waiting_turns() == frozenset({turns[3]})
    store.close()
    assert (slack.asked, slack.cited, slack.unfinished) == (5, 4, 1)


def test_report_json_counts_a_waiting_reply_as_unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(tmp_path / "store.db")
    waiting = store.add_turn("c1", "discourse", "How do I install it?", CITED)
    store.add_turn("c2", "discourse", "What does it cost?", CITED)
    store.enqueue("discourse", reply(waiting))
    store.close()
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  path: '{tmp_path / 'store.db'}'\n", encoding="utf-8")
    assert main(["--config", str(config), "report", "--json"]) == 0
    total = json.loads(capsys.readouterr().out)["total"]
    assert (total["asked"], total["cited"], total["unfinished"]) == (2, 1, 1)
    assert main(["--config", str(config), "report"]) == 0
    table = capsys.readouterr().out
    (row,) = [line for line in table.splitlines() if line.split()[:1] == ["discourse"]]
    assert row.split()[1:6] == ["2", "1", "0", "0", "1"]  # asked cited no-sources failed pending


async def test_a_slack_answer_queued_by_the_outbox_is_pending_until_delivered(
    tmp_path: Path,
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(2)), max_retries=0) as world:
        world.fake.fail("chat.postMessage", status=500, times=None)
        await world.post_event(mention("deploy?", ts="1600000000.401000"))
        [queued] = world.store.pending("slack")
        (turn,) = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.401000")
        assert (turn.status, queued.payload["turn_id"]) == ("done", turn.id)
        queued_usage = usage(world.store, "slack")
        world.fake.recover("chat.postMessage")
        assert await world.connector.outbox.flush() == 1
        delivered = usage(world.store, "slack")
    assert (queued_usage.asked, queued_usage.cited, queued_usage.unfinished) == (1, 0, 1)
    assert (delivered.asked, delivered.cited, delivered.unfinished) == (1, 1, 0)
