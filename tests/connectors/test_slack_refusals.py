"""Refusals no retry can change (an archived channel, one the bot left, a message Slack will
never take): one clear log line, no queue, no retries for hours, the turn marked failed."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    SlackWorld,
    answer_citing,
    mention,
    slack_world,
)

FAR_FUTURE = 10.0**12  # every queued item is due by then
POSTS = ("chat.postMessage", "chat.startStream", "chat.update")


def posting_calls(world: SlackWorld) -> list[str]:
    return [c.method for c in world.fake.calls if c.method in POSTS]


def turn_statuses(world: SlackWorld, thread_ts: str) -> list[str]:
    return [t.status for t in world.store.turns(f"slack:T0TEAM:{PUBLIC}:{thread_ts}")]


@pytest.mark.parametrize("streaming", ["none", "edit", "native"])
@pytest.mark.parametrize(
    ("code", "hint"),
    [
        ("is_archived", "the channel is archived"),
        ("channel_not_found", "the channel is gone"),
        ("not_in_channel", "invite it"),
    ],
)
async def test_a_closed_channel_is_tried_once_and_never_queued(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, streaming: str, code: str, hint: str
) -> None:
    answerer = CannedAnswerer(answer_citing(2))
    async with slack_world(tmp_path, answerer, streaming=streaming) as world:
        for method in POSTS:
            world.fake.fail(method, error=code, times=None)
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            await world.post_event(mention("archived meanwhile", ts="1600000000.090000"))
            assert world.store.due("slack", now=FAR_FUTURE) == []
            await world.connector.outbox.flush()
        # one attempt: no fallback post, no apology, nothing queued for later
        assert len(posting_calls(world)) == 1
        assert turn_statuses(world, "1600000000.090000") == ["failed"]
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert [r.exc_info for r in errors] == [None]
        assert code in errors[0].getMessage() and hint in errors[0].getMessage()


async def test_a_message_slack_will_never_take_gets_an_apology_not_a_queue(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        world.fake.fail("chat.postMessage", error="msg_blocks_too_long")
        await world.post_event(mention("too big", ts="1600000000.091000"))
        assert world.store.due("slack", now=FAR_FUTURE) == []
        posted = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.091000")
        assert [m["text"] for m in posted] == [world.connector.settings.apology]
        assert turn_statuses(world, "1600000000.091000") == ["failed"]


async def test_a_queued_answer_is_dropped_once_its_channel_is_archived(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, max_retries=0) as world:
        world.fake.fail("chat.postMessage", status=500)
        await world.post_event(mention("slack is down", ts="1600000000.092000"))
        assert len(world.store.due("slack", now=FAR_FUTURE)) == 1
        world.fake.fail("chat.postMessage", error="is_archived", times=None)
        with caplog.at_level(logging.ERROR, logger="bot.connectors"):
            assert await world.connector.outbox.flush() == 0
        assert world.store.due("slack", now=FAR_FUTURE) == []
        assert any("is_archived" in r.getMessage() for r in caplog.records)
        calls = len(world.fake.calls)
        await world.connector.outbox.flush()
        assert len(world.fake.calls) == calls


async def test_a_missing_scope_names_the_scope_to_add(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        scopes = {"needed": "chat:write", "provided": "app_mentions:read"}
        world.fake.fail("chat.postMessage", error="missing_scope", times=None, fields=scopes)
        with caplog.at_level(logging.ERROR, logger="bot.connectors"):
            await world.post_event(mention("no scope", ts="1600000000.093000"))
        [error] = [r.getMessage() for r in caplog.records]
        assert "lacks the chat:write scope" in error
        assert world.store.due("slack", now=FAR_FUTURE) == []
        assert len(world.fake.calls_to("chat.postMessage")) == 1


async def test_an_answer_refused_after_its_draft_was_deleted_still_ends_in_an_apology(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(3), chunk=5)
    async with slack_world(tmp_path, answerer, streaming="edit") as world:
        # the draft posts, but Slack takes no edit and not the complete answer posted anew
        world.fake.fail("chat.update", error="msg_blocks_too_long", times=None)
        world.fake.fail("chat.postMessage", error="msg_blocks_too_long", after=1)
        await world.post_event(mention("too big", ts="1600000000.094000"))
        posted = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.094000")
        assert [m["text"] for m in posted] == [world.connector.settings.apology]
        assert world.store.due("slack", now=FAR_FUTURE) == []
        assert turn_statuses(world, "1600000000.094000") == ["failed"]
