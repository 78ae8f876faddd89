"""A Discourse question answered again is one turn in the store, and one question in the report.

A question whose answer a restart cut short was stored as a ``failed`` turn and, answered by the
outbox worker after the restart, as a ``done`` one beside it: ``citecast report`` counted one
question as asked twice and failed once. The answer given again now finishes the turn left.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot.connectors.answer_records import DISCOURSE_SCOPE, record_turn, recorded_turns
from bot.connectors.discourse_question_turn import question_turn
from bot.errors import BackendError
from bot.store import Store
from bot.usage_report import build_report
from tests.connectors.discourse_harness import (
    PUBLIC,
    SECRET,
    Harness,
    forum,
    harness,
    make_harness,
    only_post,
)
from tests.connectors.test_discourse_recovery import FlakyAnswerer, close, until
from tests.fakes.answerer import GatedAnswerer
from tests.fakes.discourse_api import FakeDiscourse, webhook_request

__all__ = ["forum", "harness"]

TOPIC = "discourse-topic-77"


async def _cut_short_by_a_restart(forum: FakeDiscourse, tmp_path: Path) -> int:
    """Post a new topic and stop the server while its answer is being written; returns the
    topic id."""
    before = await make_harness(forum, tmp_path)
    before.connector.shutdown_grace = 0
    gated = GatedAnswerer(before.answerer)
    before.connector.services.assistant = gated
    first = forum.new_topic("Restart", "Will you still answer me?", category_id=PUBLIC)
    body, headers = webhook_request(first, SECRET)
    await before.http.post("/discourse/webhook", content=body, headers=headers)
    await gated.started.wait()
    await close(before)  # the deploy restarts the server mid-answer
    assert forum.api_posts == []
    return int(first["topic_id"])


async def _answered_after_the_restart(forum: FakeDiscourse, tmp_path: Path) -> Harness:
    after = await make_harness(forum, tmp_path)
    await after.connector.start()
    await until(lambda: len(forum.bot_posts()) > 0)
    await after.connector.drain()
    only_post(forum)
    return after


async def test_a_question_answered_after_a_restart_counts_once_in_the_report(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    topic_id = await _cut_short_by_a_restart(forum, tmp_path)
    after = await _answered_after_the_restart(forum, tmp_path)
    try:
        report = build_report(after.store, time.time() - 86400, 1)
        (discourse,) = [c for c in report.channels if c.channel == "discourse"]
        assert (discourse.asked, discourse.cited, discourse.failed) == (1, 1, 0)
        (turn,) = after.store.turns(f"discourse-topic-{topic_id}")
        assert turn.status == "done" and turn.answer is not None
        # the reply is judged as history by that one turn
        recorded = recorded_turns(after.store, DISCOURSE_SCOPE, f"{topic_id}:1")
        assert recorded == (turn.id,)
    finally:
        await close(after)


async def test_a_turn_a_crash_left_pending_is_finished_by_the_answer_after_it(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    topic_id = await _cut_short_by_a_restart(forum, tmp_path)
    # a crash (or a shutdown out of time) never stores the turn failed: it is left pending,
    # and the next `citecast serve` marks it failed before the outbox answers the question
    store = Store(tmp_path / "citecast.db")
    (left,) = store.turns(f"discourse-topic-{topic_id}")
    store.finish_turn(left.id, None, None, status="pending")
    assert store.fail_pending_turns() == 1
    store.close()

    after = await _answered_after_the_restart(forum, tmp_path)
    try:
        (turn,) = after.store.turns(f"discourse-topic-{topic_id}")
        assert (turn.id, turn.status) == (left.id, "done")
    finally:
        await close(after)


async def test_a_question_answered_again_after_a_model_outage_is_one_turn(
    harness: Harness,
) -> None:
    flaky = FlakyAnswerer(harness.answerer, [BackendError("cannot reach the model endpoint")])
    harness.connector.services.assistant = flaky
    first = harness.forum.new_topic("Outage", "Is the model up?", category_id=PUBLIC)
    await harness.deliver(first)
    (failed,) = harness.store.turns(f"discourse-topic-{first['topic_id']}")
    assert failed.status == "failed"  # as the report counts it until it is answered

    await harness.connector.start()
    await until(lambda: len(harness.forum.bot_posts()) > 0)
    await harness.connector.drain()
    assert flaky.calls == 2
    (turn,) = harness.store.turns(f"discourse-topic-{first['topic_id']}")
    assert (turn.id, turn.status) == (failed.id, "done")


# -- which turn is taken again -----------------------------------------------------------------


def test_an_unanswered_turn_is_taken_again_and_made_pending(tmp_path: Path) -> None:
    store = Store(tmp_path / "citecast.db")
    first = question_turn(store, TOPIC, 77, 1, "how to install?")
    store.finish_turn(first, None, None, status="failed")
    assert question_turn(store, TOPIC, 77, 1, "how to install?") == first
    again = store.turn(first)
    assert again is not None and again.status == "pending"
    assert len(store.turns(TOPIC)) == 1


def test_a_turn_holding_an_answer_is_never_taken_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "citecast.db")
    done = question_turn(store, TOPIC, 77, 1, "how to install?")
    store.finish_turn(done, {"text": "Install with pip."}, {})
    # a reply dropped by the outbox after its answer was stored: failed, but answered
    dropped = question_turn(store, TOPIC, 77, 2, "how to upgrade?")
    store.finish_turn(dropped, {"text": "Upgrade with pip."}, {}, status="failed")

    assert question_turn(store, TOPIC, 77, 1, "how to install?") not in (done, dropped)
    assert question_turn(store, TOPIC, 77, 2, "how to upgrade?") not in (done, dropped)
    assert [t.status for t in store.turns(TOPIC)] == ["done", "failed", "pending", "pending"]


def test_a_turn_of_another_topic_is_not_taken(tmp_path: Path) -> None:
    # the record names the post by topic and number; a turn stored under another conversation
    # (another channel's, or a record written by hand) is not this question's
    store = Store(tmp_path / "citecast.db")
    other = store.add_turn("discourse-topic-78", "discourse", "elsewhere", status="failed")
    record_turn(store, DISCOURSE_SCOPE, "77:1", other)
    turn_id = question_turn(store, TOPIC, 77, 1, "how to install?")
    assert turn_id != other
    assert recorded_turns(store, DISCOURSE_SCOPE, "77:1") == (other, turn_id)
