"""Streams and edits that fail on the way: the answer still arrives whole, never an apology."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    context_texts,
    long_thread,
    mention,
    slack_world,
)
from tests.fakes.slack_api import FakeSlackAPI

HANG = 1.5  # past the client's timeout of 1 s
LOST = [{"drop": True}, {"hang": HANG}]
LOST_IDS = ["dropped", "timed-out"]


def the_whole_answer(fake: FakeSlackAPI, thread_ts: str, apology: str) -> None:
    """The thread holds one finished message: all four facts, their sources and the buttons."""
    [message] = fake.bot_messages(PUBLIC, thread_ts=thread_ts)
    assert not message.get("streaming")
    assert message["text"] != apology
    body = " ".join(b["text"]["text"] for b in message["blocks"] if b["type"] == "section")
    assert all(f"Fact {n}." in body for n in range(1, 5))
    assert len(context_texts([message])) == 4
    assert any(b.get("block_id") == "citecast_feedback" for b in message["blocks"])


@pytest.mark.parametrize("buffer", [6, 5000], ids=["first-append", "short-answer-at-stop"])
@pytest.mark.parametrize("failure", LOST, ids=LOST_IDS)
async def test_a_stream_that_cannot_start_falls_back_to_posting(
    tmp_path: Path, failure: dict[str, object], buffer: int
) -> None:
    answerer = CannedAnswerer(answer_citing(4), chunk=3)
    async with slack_world(
        tmp_path,
        answerer,
        streaming="native",
        stream_buffer_chars=buffer,
        request_timeout_seconds=1.0,
    ) as world:
        world.fake.fail("chat.startStream", **failure)  # type: ignore[arg-type]
        await world.post_event(mention("stream?", ts="1600000000.101000"))
        assert world.fake.calls_to("chat.startStream", ok_only=True) == []
        apology = world.connector.settings.apology
        the_whole_answer(world.fake, "1600000000.101000", apology)


@pytest.mark.parametrize("failure", LOST, ids=LOST_IDS)
async def test_a_stream_broken_off_mid_answer_is_completed(
    tmp_path: Path, failure: dict[str, object]
) -> None:
    answerer = CannedAnswerer(answer_citing(4), chunk=3)
    async with slack_world(
        tmp_path, answerer, streaming="native", stream_buffer_chars=6, request_timeout_seconds=1.0
    ) as world:
        world.fake.fail("chat.appendStream", after=1, **failure)  # type: ignore[arg-type]
        await world.post_event(mention("stream?", ts="1600000000.102000"))
        assert len(world.fake.calls_to("chat.appendStream", ok_only=True)) == 1
        # the stream, maybe still open on Slack's side, is stopped before it is completed
        assert len(world.fake.calls_to("chat.stopStream", ok_only=True)) == 1
        the_whole_answer(world.fake, "1600000000.102000", world.connector.settings.apology)


@pytest.mark.parametrize(
    "failure", [{"error": "internal_error"}, {"hang": HANG}], ids=["refused", "timed-out"]
)
async def test_an_edit_that_fails_on_the_way_is_skipped(
    tmp_path: Path, failure: dict[str, object]
) -> None:
    answerer = CannedAnswerer(answer_citing(4), chunk=3)
    async with slack_world(
        tmp_path, answerer, streaming="edit", request_timeout_seconds=1.0
    ) as world:
        world.fake.fail("chat.update", **failure)  # type: ignore[arg-type]
        await world.post_event(mention("edit?", ts="1600000000.103000"))
        updates = world.fake.calls_to("chat.update")
        assert not updates[0].response.get("ok")
        assert updates[-1].response.get("ok")
        the_whole_answer(world.fake, "1600000000.103000", world.connector.settings.apology)


@pytest.mark.parametrize(
    "failure", [{"error": "internal_error"}, {"drop": True}], ids=["refused", "dropped"]
)
async def test_a_first_post_that_fails_leaves_the_answer_to_the_end(
    tmp_path: Path, failure: dict[str, object]
) -> None:
    answerer = CannedAnswerer(answer_citing(4), chunk=3)
    async with slack_world(tmp_path, answerer, streaming="edit") as world:
        world.fake.fail("chat.postMessage", **failure)  # type: ignore[arg-type]
        await world.post_event(mention("edit?", ts="1600000000.104000"))
        assert world.fake.calls_to("chat.update") == []
        assert len(world.fake.calls_to("chat.postMessage")) == 2
        the_whole_answer(world.fake, "1600000000.104000", world.connector.settings.apology)


async def test_a_first_post_slack_took_but_whose_answer_was_lost_is_completed(
    tmp_path: Path,
) -> None:
    # the post reached the thread; only Slack's answer was lost: the half answer is completed
    # in place instead of staying above a second, full copy
    answerer = CannedAnswerer(answer_citing(4), chunk=3)
    async with slack_world(tmp_path, answerer, streaming="edit") as world:
        world.fake.fail("chat.postMessage", drop=True, processed=True)
        await world.post_event(mention("edit?", ts="1600000000.105000"))
        messages = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.105000")
        assert len(messages) == 1
        assert len(world.fake.calls_to("chat.update")) == 1
        the_whole_answer(world.fake, "1600000000.105000", world.connector.settings.apology)


async def test_a_lost_first_post_is_found_after_two_thousand_replies(tmp_path: Path) -> None:
    # more replies than a read from the thread's start covers (10 pages of 200)
    answerer = CannedAnswerer(answer_citing(4), chunk=3)
    async with slack_world(tmp_path, answerer, streaming="edit") as world:
        root = long_thread(world.fake, 2100)
        world.fake.fail("chat.postMessage", drop=True, processed=True)
        await world.post_event(mention("edit?", ts=root))
        assert len(world.fake.calls_to("chat.update")) == 1
        the_whole_answer(world.fake, root, world.connector.settings.apology)
