"""A question deleted before its answer is posted: Slack would put the "reply" in the channel
itself (it un-threads a reply to a message deleted without replies), so citecast withdraws it
and answers nothing; the turn is failed, and no apology follows (it would land there too)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_deleting import DeletesQuestion
from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    SlackWorld,
    answer_citing,
    mention,
    slack_world,
)

FAR_FUTURE = 10.0**12  # every queued item is due by then


def outside_threads(world: SlackWorld, channel: str = PUBLIC) -> list[str]:
    """The texts of the bot's messages standing in the channel itself, not in a thread."""
    messages = world.fake.state.messages.get(channel, [])
    return [m["text"] for m in messages if m.get("bot_id") and not m.get("thread_ts")]


@pytest.mark.parametrize("streaming", ["none", "edit", "native"])
async def test_an_answer_to_a_deleted_question_never_stands_in_the_channel(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, streaming: str
) -> None:
    answerer = DeletesQuestion(answer_citing(2))
    async with slack_world(tmp_path, answerer, streaming=streaming) as w:
        ts = w.fake.add_message(PUBLIC, "<@U0BOT> what is our salary policy?", ASKER)
        answerer.target = (w.fake, PUBLIC, ts)
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            await w.post_event(mention("what is our salary policy?", ts=ts))
            await w.connector.outbox.flush()
        assert outside_threads(w) == []
        assert w.fake.bot_messages(PUBLIC) == []  # no apology either: it would stand there too
        assert w.store.due("slack", now=FAR_FUTURE) == []
        [turn] = w.store.turns(f"slack:T0TEAM:{PUBLIC}:{ts}")
        assert turn.status == "failed"
        said = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)
        assert "deleted before its answer was posted" in said


async def test_a_queued_answer_whose_question_was_deleted_is_dropped_not_posted(
    tmp_path: Path,
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        ts = world.fake.add_message(PUBLIC, "<@U0BOT> deploy?", ASKER)
        world.fake.fail("chat.postMessage", status=500, times=4)  # outlasts the retries: queued
        await world.post_event(mention("deploy?", ts=ts))
        assert len(world.store.due("slack", now=FAR_FUTURE)) == 1
        world.fake.delete_message(PUBLIC, ts)
        await world.connector.outbox.flush()
        assert outside_threads(world) == []
        assert world.store.due("slack", now=FAR_FUTURE) == []
        [turn] = world.store.turns(f"slack:T0TEAM:{PUBLIC}:{ts}")
        assert turn.status == "failed"


async def test_a_question_deleted_after_its_thread_began_is_still_answered_there(
    tmp_path: Path,
) -> None:
    # Slack keeps a deleted message that has replies (a tombstone): the thread goes on.
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        ts = world.fake.add_message(PUBLIC, "<@U0BOT> deploy?", ASKER)
        world.fake.add_message(PUBLIC, "same question here", "U0OTHER", thread_ts=ts)
        world.fake.delete_message(PUBLIC, ts)
        await world.post_event(mention("deploy?", ts=ts))
        assert outside_threads(world) == []
        assert len(world.fake.bot_messages(PUBLIC, thread_ts=ts)) == 1


async def test_an_answer_naming_no_thread_is_kept_while_the_question_is_there(
    tmp_path: Path,
) -> None:
    # Only a deleted question makes a reply withdrawn, not the shape of Slack's answer alone.
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.echo_thread_ts = False
        ts = world.fake.add_message(PUBLIC, "<@U0BOT> deploy?", ASKER)
        await world.post_event(mention("deploy?", ts=ts))
        assert len(world.fake.bot_messages(PUBLIC, thread_ts=ts)) == 1
        assert world.fake.calls_to("chat.delete") == []
