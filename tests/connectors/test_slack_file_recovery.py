"""An answer's files go after its messages: recovering a cut-short or failed upload uploads only
what the thread lacks, and never posts again the messages Slack already has.

A stop (a shutdown out of grace, a crash) is taken as it leaves things: a flush or an answer
cancelled while its upload hangs, or the store file and Slack's messages copied into a new
process that starts.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.usage_report import build_report
from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    SlackWorld,
    mention,
    settle,
    slack_world,
)
from tests.connectors.test_slack_delivery import file_answer
from tests.fakes.slack_api import FakeSlackAPI

# The fake answers a hung upload call after this long (the client waits 10 s): long enough for
# the test to stop the work waiting on it.
HANG = 1.0


def shared_files(fake: FakeSlackAPI, thread_ts: str) -> list[str]:
    """The titles of the files shared into the thread, once per share."""
    return [
        str(f.get("title"))
        for m in fake.state.messages.get(PUBLIC, [])
        if m.get("thread_ts") == thread_ts
        for f in m.get("files") or []
    ]


def handbook(tmp_path: Path) -> Path:
    pdf = tmp_path / "handbook.pdf"
    pdf.write_bytes(b"%PDF-1.4 fake handbook" * 50)
    return pdf


async def upload_begun(fake: FakeSlackAPI) -> None:
    """Wait until an upload has asked Slack for its URL (the fake then hangs)."""
    while not fake.calls_to("files.getUploadURLExternal"):
        await asyncio.sleep(0.01)


async def test_a_resend_stopped_before_its_upload_posts_nothing_twice(tmp_path: Path) -> None:
    answerer = CannedAnswerer(file_answer(handbook(tmp_path)))
    async with slack_world(tmp_path, answerer, max_retries=0) as world:
        fake = world.fake
        fake.fail("chat.postMessage", status=500)
        await world.post_event(mention("leave?", ts="1600000000.041000"))
        assert fake.bot_messages(PUBLIC) == []  # queued
        fake.fail("files.getUploadURLExternal", hang=HANG)
        flushing = asyncio.create_task(world.connector.outbox.flush())
        await asyncio.wait_for(upload_begun(fake), timeout=30)
        flushing.cancel()  # the process stops there
        await asyncio.gather(flushing, return_exceptions=True)
        assert len(fake.bot_messages(PUBLIC)) == 1

        await world.connector.outbox.flush()
        await world.connector.outbox.flush()
        assert len(fake.bot_messages(PUBLIC, thread_ts="1600000000.041000")) == 1
        assert shared_files(fake, "1600000000.041000") == ["[1] handbook.pdf"]
        assert world.store.pending("slack") == []


async def test_an_upload_that_failed_is_tried_again_until_it_is_in_the_thread(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(file_answer(handbook(tmp_path)))
    async with slack_world(tmp_path, answerer, max_retries=0) as world:
        fake = world.fake
        fake.fail("files.completeUploadExternal", drop=True)
        await world.post_event(mention("leave?", ts="1600000000.042000"))
        assert shared_files(fake, "1600000000.042000") == []
        assert len(world.store.pending("slack")) == 1

        assert await world.connector.outbox.flush() == 1
        assert len(fake.bot_messages(PUBLIC)) == 1
        assert shared_files(fake, "1600000000.042000") == ["[1] handbook.pdf"]
        assert world.store.pending("slack") == []


async def test_an_upload_slack_took_though_its_answer_was_lost_is_not_made_again(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(file_answer(handbook(tmp_path)))
    async with slack_world(tmp_path, answerer, max_retries=0) as world:
        fake = world.fake
        fake.fail("files.completeUploadExternal", drop=True, processed=True)
        await world.post_event(mention("leave?", ts="1600000000.043000"))
        assert shared_files(fake, "1600000000.043000") == ["[1] handbook.pdf"]

        await world.connector.outbox.flush()
        assert len(fake.calls_to("files.getUploadURLExternal")) == 1
        assert shared_files(fake, "1600000000.043000") == ["[1] handbook.pdf"]
        assert len(fake.bot_messages(PUBLIC)) == 1
        assert world.store.pending("slack") == []


async def outbox_emptied(world: SlackWorld) -> None:
    """Flush until nothing is left to send (the outbox's own loop, started with the
    connector, may be sending an item when this flush passes it by)."""
    while world.store.pending("slack"):
        await world.connector.outbox.flush()
        await asyncio.sleep(0.05)


async def test_an_answer_stopped_before_its_upload_is_not_posted_again_after_restart(
    tmp_path: Path,
) -> None:
    pdf = handbook(tmp_path)
    (tmp_path / "before").mkdir()
    answerer = CannedAnswerer(file_answer(pdf))
    async with slack_world(tmp_path / "before", answerer, max_retries=0) as world:
        question = world.fake.add_message(PUBLIC, "<@U0BOT> leave?", ASKER)
        world.fake.fail("files.getUploadURLExternal", hang=HANG)
        await world.post_event(mention("leave?", ts=question), wait=False)
        await asyncio.wait_for(upload_begun(world.fake), timeout=30)
        [posted] = world.fake.bot_messages(PUBLIC, question)
        messages = world.snapshot(tmp_path / "after")

    answerer = CannedAnswerer(file_answer(pdf))
    async with slack_world(tmp_path / "after", answerer) as world:
        world.fake.state.messages.update(messages)
        assert world.store.fail_pending_turns() == 1  # what the next `citecast serve` does first
        await world.connector.start()
        await settle(world.connector)
        await asyncio.wait_for(outbox_emptied(world), timeout=30)
        assert answerer.calls == []  # not answered again
        assert world.fake.bot_messages(PUBLIC, question) == [posted]
        assert shared_files(world.fake, question) == ["[1] handbook.pdf"]
        assert world.store.pending("slack") == []
        assert world.store.pending("slack-question") == []
        # the asker has the answer: it counts once, as answered (README "Reliability")
        [turn] = world.store.turns(f"slack:T0TEAM:{PUBLIC}:{question}")
        [slack] = build_report(world.store, since=0.0, days=1.0).channels
        assert (turn.status, slack.failed) == ("done", 0)


async def test_two_passes_at_once_send_a_queued_answer_and_its_file_once(tmp_path: Path) -> None:
    """The outbox's own loop and a pass run beside it (after a restart, say) share the items."""
    answerer = CannedAnswerer(file_answer(handbook(tmp_path)))
    async with slack_world(tmp_path, answerer, max_retries=0) as world:
        fake = world.fake
        fake.fail("chat.postMessage", status=500)
        await world.post_event(mention("leave?", ts="1600000000.044000"))
        outbox = world.connector.outbox
        done = await asyncio.gather(outbox.flush(), outbox.flush())
        assert sorted(done) == [0, 1]
        assert len(fake.bot_messages(PUBLIC, thread_ts="1600000000.044000")) == 1
        assert shared_files(fake, "1600000000.044000") == ["[1] handbook.pdf"]
        assert world.store.pending("slack") == []


async def test_files_left_for_a_channel_archived_since_are_dropped_at_once(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(file_answer(handbook(tmp_path)))
    async with slack_world(tmp_path, answerer, max_retries=0) as world:
        fake = world.fake
        fake.fail("files.completeUploadExternal", drop=True)
        await world.post_event(mention("leave?", ts="1600000000.045000"))
        [left] = world.store.pending("slack")
        fake.fail("conversations.replies", error="is_archived", times=None)
        assert await world.connector.outbox.flush() == 0
        assert world.store.pending("slack") == []
        dropped = world.store.outbox_item(left.id)
        assert dropped is not None and dropped.status == "dead"
        assert len(fake.calls_to("files.getUploadURLExternal")) == 1  # not tried again
