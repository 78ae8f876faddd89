"""A bot message Slack took but whose answer was lost is recorded as a reply to its question.

Found by its delivery key (the streamed first post, a message of an outbox resend), it is
recorded like any reply Slack returned a ts for: a restart tidies it, and a follow-up's history
pairs it with its question.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.connectors.slack_replies import ReplyLog
from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)
from tests.connectors.slack_restarts import HangingAnswerer, restarted

LONG_TEXT = "\n\n".join(f"# Part {i}\n\nStep {i} in detail.[^{i % 3 + 1}]" for i in range(90))


async def test_a_restart_removes_a_streamed_first_post_whose_answer_was_lost(
    tmp_path: Path,
) -> None:
    (tmp_path / "before").mkdir()
    text = "Run the installer as an administrator, then restart the service.[^1] Done."
    answerer = HangingAnswerer(answer_citing(1, text))
    async with slack_world(tmp_path / "before", answerer, streaming="edit") as w:
        w.fake.fail("chat.postMessage", drop=True, processed=True)
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root), wait=False)
        await asyncio.wait_for(answerer.hung.wait(), timeout=60)
        half = [m["ts"] for m in w.fake.bot_messages(PUBLIC, root)]
        recorded = ReplyLog(w.store).replies(PUBLIC, root)
        messages = w.snapshot(tmp_path / "after")
    assert len(half) == 1 and recorded == half

    after = CannedAnswerer(answer_citing(1, text))
    async with restarted(tmp_path / "after", after, messages, streaming="none") as w:
        standing = w.fake.bot_messages(PUBLIC, root)
        assert [m["ts"] for m in standing] != half and len(standing) == 1


async def test_an_outbox_resend_records_the_messages_slack_already_took(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(3, text=LONG_TEXT))
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0) as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> everything", ASKER)
        # the second message: Slack takes it, but its answer times out
        w.fake.fail("chat.postMessage", hang=1.5, processed=True, after=1)
        await w.post_event(mention("everything", ts=root))
        assert await w.connector.outbox.flush() == 1
        posted = [m["ts"] for m in w.fake.bot_messages(PUBLIC, root)]
        assert len(posted) >= 3
        assert ReplyLog(w.store).replies(PUBLIC, root) == posted


async def test_history_keeps_a_first_message_found_by_its_delivery_key(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(3, text=LONG_TEXT))
    async with slack_world(tmp_path, answerer, streaming="edit") as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> everything", ASKER)
        w.fake.fail("chat.postMessage", drop=True, processed=True)
        await w.post_event(mention("everything", ts=root))
        await w.connector.outbox.flush()
        first = w.fake.bot_messages(PUBLIC, root)[0]
        follow = w.fake.add_message(PUBLIC, "<@U0BOT> and step 3?", ASKER, thread_ts=root)
        await w.post_event(mention("and step 3?", ts=follow, thread_ts=root))
        earlier = answerer.calls[-1][2]
        assert first["ts"] in ReplyLog(w.store).replies(PUBLIC, root)
        # the earlier answer, from its first message on
        assert earlier and "Part 0" in earlier[0].answer, [e.answer[:60] for e in earlier]
