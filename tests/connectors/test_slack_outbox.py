"""Answers survive lost connections and timeouts: queued, and never posted twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    all_blocks,
    answer_citing,
    context_texts,
    long_thread,
    mention,
    slack_world,
)
from tests.connectors.test_slack_delivery import file_answer

# The fake answers a hung call after this long, past the client's timeout (1 s).
HANG = 1.5
LONG_TEXT = "\n\n".join(f"# Part {i}\n\nStep {i} in detail.[^{i % 3 + 1}]" for i in range(90))


def headers(messages: list[dict[str, object]]) -> list[str]:
    return [b["text"]["text"] for b in all_blocks(messages) if b["type"] == "header"]


@pytest.mark.parametrize(
    "failure",
    [
        {"drop": True},
        {"hang": HANG},
        {"drop": True, "processed": True},
        {"hang": HANG, "processed": True},
    ],
    ids=["dropped", "timed-out", "dropped-after-posting", "timed-out-after-posting"],
)
async def test_a_lost_answer_is_queued_and_arrives_once(
    tmp_path: Path, failure: dict[str, object]
) -> None:
    answerer = CannedAnswerer(answer_citing(2))
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0) as world:
        fake = world.fake
        fake.fail("chat.postMessage", **failure)  # type: ignore[arg-type]
        ts = fake.add_message(PUBLIC, "<@U0BOT> deploy?", ASKER)
        await world.post_event(mention("deploy?", ts=ts))
        # the client does not repeat a post Slack may have taken
        assert len(fake.calls_to("chat.postMessage")) == 1
        [queued] = world.store.pending("slack")
        assert queued.payload["thread_ts"] == ts
        turns = world.store.turns(f"slack:T0TEAM:{PUBLIC}:{ts}")
        assert [t.status for t in turns] == ["done"]
        assert await world.connector.outbox.flush() == 1
        assert fake.calls_to("conversations.replies", ok_only=True)
        assert await world.connector.outbox.flush() == 0
        [message] = fake.bot_messages(PUBLIC, thread_ts=ts)
        assert len(context_texts([message])) == 2
        assert any(b.get("block_id") == "citecast_feedback" for b in message["blocks"])
        assert world.store.pending("slack") == []


async def test_a_long_answer_cut_by_a_timeout_resumes_after_what_slack_took(
    tmp_path: Path,
) -> None:
    """Every continuation message reads "(continued)": only the delivery key tells them apart."""
    answerer = CannedAnswerer(answer_citing(3, text=LONG_TEXT))
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0) as world:
        fake = world.fake
        fake.fail("chat.postMessage", hang=HANG, processed=True, after=1)
        await world.post_event(mention("everything", ts="1600000000.031000"))
        assert len(fake.bot_messages(PUBLIC)) == 2
        assert await world.connector.outbox.flush() == 1
        messages = fake.bot_messages(PUBLIC, thread_ts="1600000000.031000")
        assert len(messages) >= 3
        assert [m["text"] for m in messages[1:]] == ["(continued)"] * (len(messages) - 1)
        assert headers(messages) == [f"Part {i}" for i in range(90)]
        assert len(context_texts(messages)) == 3
        assert world.store.pending("slack") == []


async def test_an_unreadable_thread_holds_the_resend_back(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0) as world:
        fake = world.fake
        fake.fail("chat.postMessage", hang=HANG, processed=True)
        await world.post_event(mention("deploy?", ts="1600000000.032000"))
        fake.fail("conversations.replies", status=500, times=None)
        assert await world.connector.outbox.flush() == 0
        assert len(fake.calls_to("chat.postMessage")) == 1
        [queued] = world.store.pending("slack")
        assert queued.attempts == 1
        assert len(fake.bot_messages(PUBLIC)) == 1


async def test_a_lost_upload_does_not_lose_the_answer(tmp_path: Path) -> None:
    pdf = tmp_path / "handbook.pdf"
    pdf.write_bytes(b"%PDF-1.4 fake handbook" * 50)
    answerer = CannedAnswerer(file_answer(pdf))
    async with slack_world(tmp_path, answerer, max_retries=0) as world:
        world.fake.fail("files.completeUploadExternal", drop=True)
        await world.post_event(mention("leave?", ts="1600000000.033000"))
        [message] = world.fake.bot_messages(PUBLIC)
        assert message["text"] != world.connector.settings.apology
        assert any("handbook.pdf" in s for s in context_texts([message]))
        turns = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.033000")
        assert [t.status for t in turns] == ["done"]


# More replies than the 10 pages of 200 a thread read is allowed: the bot's post comes after
# the 2,000th reply, where a read from the thread's start never gets.
LONG_THREAD = 2100


async def test_a_resend_finds_its_post_after_two_thousand_replies(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(2))
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0) as world:
        fake = world.fake
        root = long_thread(fake, LONG_THREAD)
        fake.fail("chat.postMessage", hang=HANG, processed=True)
        await world.post_event(mention("deploy?", ts=root))
        assert len(fake.bot_messages(PUBLIC, thread_ts=root)) == 1
        assert await world.connector.outbox.flush() == 1
        [message] = fake.bot_messages(PUBLIC, thread_ts=root)
        assert len(context_texts([message])) == 2
        assert len(fake.calls_to("chat.postMessage")) == 1
        assert world.store.pending("slack") == []


async def test_a_failed_resend_is_found_again_after_two_thousand_replies(
    tmp_path: Path,
) -> None:
    """The resend itself is lost after Slack took it: the next one reads from when the item
    was first tried, not from the thread's start."""
    answerer = CannedAnswerer(answer_citing(2))
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0, max_retries=0) as world:
        fake = world.fake
        root = long_thread(fake, LONG_THREAD)
        fake.fail("chat.postMessage", error="fatal_error")
        await world.post_event(mention("deploy?", ts=root))
        assert fake.bot_messages(PUBLIC, thread_ts=root) == []
        fake.fail("chat.postMessage", hang=HANG, processed=True)
        assert await world.connector.outbox.flush() == 0
        [queued] = world.store.pending("slack")
        assert queued.attempts == 1
        # due now rather than after the outbox's backoff
        world.store.mark_failed_attempt(queued.id, "answer lost", retry_in=0.0)
        assert await world.connector.outbox.flush() == 1
        [message] = fake.bot_messages(PUBLIC, thread_ts=root)
        assert len(context_texts([message])) == 2
        assert world.store.pending("slack") == []


async def test_a_long_answer_cut_in_a_long_thread_resumes_after_what_slack_took(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(3, text=LONG_TEXT))
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0) as world:
        fake = world.fake
        root = long_thread(fake, LONG_THREAD)
        fake.fail("chat.postMessage", hang=HANG, processed=True, after=1)
        await world.post_event(mention("everything", ts=root))
        assert len(fake.bot_messages(PUBLIC, thread_ts=root)) == 2
        assert await world.connector.outbox.flush() == 1
        messages = fake.bot_messages(PUBLIC, thread_ts=root)
        assert headers(messages) == [f"Part {i}" for i in range(90)]
        assert world.store.pending("slack") == []
