"""Slack: an answer the outbox drops is a failed turn, not an answered one.

The turn is stored (``done``) once its answer is handed to the outbox, possibly still queued.
When the outbox then drops it (Slack refuses it for good, or it fails ``MAX_ATTEMPTS`` tries),
the turn is recorded as ``failed``, so ``citecast report`` does not count the question as
answered; the answer stays stored with it. An answer the outbox delivers stays ``done``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.slack_outbox import MAX_ATTEMPTS
from bot.store_rows import Turn
from bot.usage_report import build_report
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    SlackWorld,
    answer_citing,
    mention,
    slack_world,
)

LONG_TEXT = "\n\n".join(f"# Part {i}\n\nStep {i} in detail.[^{i % 3 + 1}]" for i in range(90))


def only_turn(world: SlackWorld, thread_ts: str) -> Turn:
    (turn,) = world.store.turns(f"slack:T0TEAM:{PUBLIC}:{thread_ts}")
    return turn


def slack_usage(world: SlackWorld) -> tuple[int, int, int, int]:
    """(asked, cited, without sources, failed) of the slack channel in the report."""
    report = build_report(world.store, since=0, days=1)
    (usage,) = [u for u in report.channels if u.channel == "slack"]
    return usage.asked, usage.cited, usage.without_sources, usage.failed


async def queue_an_answer(world: SlackWorld, thread_ts: str) -> None:
    """Ask, with Slack failing every post (500): the answer ends up queued."""
    world.fake.fail("chat.postMessage", status=500, times=None)
    await world.post_event(mention("deploy?", ts=thread_ts))
    assert len(world.store.pending("slack")) == 1
    assert only_turn(world, thread_ts).status == "done"  # still to be delivered
    world.fake.recover("chat.postMessage")


@pytest.mark.parametrize("streaming", ["none", "edit", "native"])
async def test_a_queued_answer_refused_for_good_is_a_failed_turn(
    tmp_path: Path, streaming: str
) -> None:
    answerer = CannedAnswerer(answer_citing(2), chunk=5)
    async with slack_world(tmp_path, answerer, max_retries=0, streaming=streaming) as world:
        # native streaming is refused, so the answer falls back to a post that fails
        world.fake.fail("chat.startStream", error="feature_not_enabled", times=None)
        await queue_an_answer(world, "1600000000.301000")
        [queued] = world.store.pending("slack")
        turn = only_turn(world, "1600000000.301000")
        assert queued.payload["turn_id"] == turn.id
        world.fake.fail("chat.postMessage", error="is_archived", times=None)
        assert await world.connector.outbox.flush() == 0
        assert world.store.pending("slack") == []
        failed = only_turn(world, "1600000000.301000")
        assert failed.status == "failed"
        assert failed.answer == turn.answer  # kept: what would have been posted
        assert slack_usage(world) == (1, 0, 0, 1)


async def test_a_queued_answer_given_up_after_its_last_try_is_a_failed_turn(
    tmp_path: Path,
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(2)), max_retries=0) as world:
        await queue_an_answer(world, "1600000000.302000")
        [queued] = world.store.pending("slack")
        # all tries but the last have failed already (due again at once)
        for _ in range(MAX_ATTEMPTS - 1):
            world.store.mark_failed_attempt(queued.id, "Slack is down", retry_in=0.0)
        assert only_turn(world, "1600000000.302000").status == "done"
        world.fake.fail("chat.postMessage", status=500, times=None)
        assert await world.connector.outbox.flush() == 0
        item = world.store.outbox_item(queued.id)
        assert item is not None and item.status == "dead"
        assert only_turn(world, "1600000000.302000").status == "failed"
        assert slack_usage(world) == (1, 0, 0, 1)


async def test_the_rest_of_an_answer_slack_took_in_part_keeps_its_turn(tmp_path: Path) -> None:
    """A resend that posts part of the answer queues the rest as a new item: dropping that one
    fails the turn too (the asker never got the whole answer)."""
    answerer = CannedAnswerer(answer_citing(3, text=LONG_TEXT))
    async with slack_world(tmp_path, answerer, max_retries=0) as world:
        await queue_an_answer(world, "1600000000.303000")
        [first] = world.store.pending("slack")
        world.fake.fail("chat.postMessage", status=500, after=1)
        assert await world.connector.outbox.flush() == 0
        [rest] = world.store.pending("slack")
        assert rest.id != first.id
        assert rest.payload["turn_id"] == only_turn(world, "1600000000.303000").id
        world.fake.fail("chat.postMessage", error="is_archived", times=None)
        await world.connector.outbox.flush()
        assert world.store.pending("slack") == []
        assert only_turn(world, "1600000000.303000").status == "failed"


async def test_a_queued_answer_delivered_later_stays_answered(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(2)), max_retries=0) as world:
        await queue_an_answer(world, "1600000000.304000")
        assert await world.connector.outbox.flush() == 1
        assert len(world.fake.bot_messages(PUBLIC, thread_ts="1600000000.304000")) == 1
        assert only_turn(world, "1600000000.304000").status == "done"
        assert slack_usage(world) == (1, 1, 0, 0)


async def test_an_item_queued_without_a_turn_id_leaves_the_turns_alone(tmp_path: Path) -> None:
    """An item queued by an older version names no turn: dropping it changes no turn."""
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(2)), max_retries=0) as world:
        await queue_an_answer(world, "1600000000.305000")
        [queued] = world.store.pending("slack")
        world.store.mark_sent(queued.id)
        old = {k: v for k, v in queued.payload.items() if k != "turn_id"}
        world.store.enqueue("slack", old)
        world.fake.fail("chat.postMessage", error="is_archived", times=None)
        assert await world.connector.outbox.flush() == 0
        assert world.store.pending("slack") == []
        assert only_turn(world, "1600000000.305000").status == "done"


@pytest.mark.parametrize("streaming", ["edit", "native"])
async def test_a_shown_answer_whose_completion_is_dropped_is_a_failed_turn(
    tmp_path: Path, streaming: str
) -> None:
    """The answer was shown while written, Slack refused to complete it, and the whole answer,
    posted anew through the outbox, is then refused for good."""
    answerer = CannedAnswerer(answer_citing(2), chunk=5)
    async with slack_world(tmp_path, answerer, max_retries=0, streaming=streaming) as world:
        fake = world.fake
        fake.fail("chat.stopStream", error="message_not_in_streaming_state", times=None)
        fake.fail("chat.update", status=500, times=None)
        # the edit mode's first post goes through; the answer posted anew does not
        fake.fail("chat.postMessage", status=500, times=None, after=1 if streaming == "edit" else 0)
        await world.post_event(mention("deploy?", ts="1600000000.306000"))
        [queued] = world.store.pending("slack")
        turn = only_turn(world, "1600000000.306000")
        assert (turn.status, queued.payload["turn_id"]) == ("done", turn.id)
        fake.recover("chat.postMessage")
        fake.fail("chat.postMessage", error="is_archived", times=None)
        assert await world.connector.outbox.flush() == 0
        assert only_turn(world, "1600000000.306000").status == "failed"


async def test_a_broken_queued_item_is_dropped_and_does_not_hold_back_later_answers(
    tmp_path: Path,
) -> None:
    """An item that cannot be read (here: no channel) fails the same way on every pass; it is
    dropped with its turn failed, and the answers queued after it are still posted."""
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(2)), max_retries=0) as world:
        await queue_an_answer(world, "1600000000.307000")
        [queued] = world.store.pending("slack")
        world.store.mark_sent(queued.id)
        broken = world.store.enqueue(
            "slack", {k: v for k, v in queued.payload.items() if k != "channel"}
        )
        world.fake.fail("chat.postMessage", status=500, times=None)
        await world.post_event(mention("deploy?", ts="1600000000.308000"))
        world.fake.recover("chat.postMessage")
        assert len(world.store.pending("slack")) == 2
        assert await world.connector.outbox.flush() == 1
        item = world.store.outbox_item(broken)
        assert item is not None and item.status == "dead"
        assert only_turn(world, "1600000000.307000").status == "failed"
        assert len(world.fake.bot_messages(PUBLIC, thread_ts="1600000000.308000")) == 1
        assert only_turn(world, "1600000000.308000").status == "done"
        assert world.store.pending("slack") == []
