"""a crash while answering the second of two quick questions in one thread."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.models import Answer
from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)
from tests.connectors.slack_restarts import HangingAnswerer, restarted


def hangs_on_windows(answer: Answer) -> HangingAnswerer:
    """Answers every question, but the process dies half-way through the Windows one."""
    return HangingAnswerer(answer, hangs_on=lambda question: "Windows" in question)


@pytest.mark.parametrize("streaming", ["native", "edit"])
async def test_the_first_answer_survives_a_crash_in_the_second(
    tmp_path: Path, streaming: str
) -> None:
    (tmp_path / "before").mkdir()
    text = "Run the installer as an administrator, then restart the service.[^1] Done."
    answerer = hangs_on_windows(answer_citing(1, text))
    async with slack_world(
        tmp_path / "before", answerer, streaming=streaming, stream_buffer_chars=10
    ) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        second = w.fake.add_message(PUBLIC, "<@U0BOT> and on Windows?", ASKER, thread_ts=root)
        await w.post_event(mention("how do I install it?", ts=root))
        first_answer = [m["ts"] for m in w.fake.bot_messages(PUBLIC, root)]
        await w.post_event(mention("and on Windows?", ts=second, thread_ts=root), wait=False)
        await asyncio.wait_for(answerer.hung.wait(), timeout=60)
        half = [m["ts"] for m in w.fake.bot_messages(PUBLIC, root) if m["ts"] not in first_answer]
        messages = w.snapshot(tmp_path / "after")
    assert first_answer  # the first question was answered whole before the crash
    assert len(half) == 1  # the second question's half-written reply

    after = CannedAnswerer(answer_citing(1, text))
    async with restarted(tmp_path / "after", after, messages, streaming="none") as w:
        standing = [m["ts"] for m in w.fake.bot_messages(PUBLIC, root)]
        deleted = [c.args.get("ts") for c in w.fake.calls_to("chat.delete")]
        assert [q for q, _, _ in after.calls] == ["and on Windows?"]
        assert set(first_answer) <= set(standing), "the first question's answer was deleted"
        assert deleted == half  # only the second question's half answer is tidied away


@pytest.mark.parametrize("streaming", ["native", "edit"])
async def test_a_remark_before_the_half_answer_does_not_leave_it_standing(
    tmp_path: Path, streaming: str
) -> None:
    (tmp_path / "before").mkdir()
    text = "Run the installer as an administrator, then restart the service.[^1] Done."
    answerer = hangs_on_windows(answer_citing(1, text))
    async with slack_world(
        tmp_path / "before", answerer, streaming=streaming, stream_buffer_chars=10
    ) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it on Windows?", ASKER)
        # a colleague's remark lands before the bot's first reply
        w.fake.add_message(PUBLIC, "+1, same question", "U0BOB", thread_ts=root)
        await w.post_event(mention("how do I install it on Windows?", ts=root), wait=False)
        await asyncio.wait_for(answerer.hung.wait(), timeout=60)
        half = [m["ts"] for m in w.fake.bot_messages(PUBLIC, root)]
        messages = w.snapshot(tmp_path / "after")
    assert len(half) == 1  # the half-written reply the kill left

    after = CannedAnswerer(answer_citing(1, text))
    async with restarted(tmp_path / "after", after, messages, streaming="none") as w:
        replies = w.fake.bot_messages(PUBLIC, root)
        assert len(replies) == 1, "the half-written reply still stands beside the new answer"


async def test_a_short_stream_killed_in_its_stop_is_tidied_after_restart(tmp_path: Path) -> None:
    # an answer shorter than the stream's buffer: Slack starts its message inside the stop,
    # and the process dies while chat.stopStream is on its way
    (tmp_path / "before").mkdir()
    answerer = CannedAnswerer(answer_citing(1, "Links last an hour.[^1]"))
    async with slack_world(
        tmp_path / "before", answerer, streaming="native", shutdown_grace_seconds=0.1
    ) as w:
        w.fake.fail("chat.stopStream", hang=2, processed=True)
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how long do links last?", ASKER)
        await w.post_event(mention("how long do links last?", ts=root), wait=False)
        for _ in range(600):
            if w.fake.calls_to("chat.stopStream"):
                break
            await asyncio.sleep(0.05)
        half = [m["ts"] for m in w.fake.bot_messages(PUBLIC, root)]
        messages = w.snapshot(tmp_path / "after")
    assert len(half) == 1  # the stream Slack started before the kill

    after = CannedAnswerer(answer_citing(1, "Links last an hour.[^1]"))
    async with restarted(tmp_path / "after", after, messages, streaming="none") as w:
        assert [c.args.get("ts") for c in w.fake.calls_to("chat.delete")] == half
        assert len(w.fake.bot_messages(PUBLIC, root)) == 1
