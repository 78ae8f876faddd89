"""The follow-up check reads the thread once and never waits: a refused read answers at once."""

from __future__ import annotations

from pathlib import Path

from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)


async def test_a_rate_limited_check_answers_without_waiting(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1)), streaming="native") as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT> and on Windows?", ASKER, thread_ts=root)
        w.sleeps.clear()
        # the history's read goes through; the check's read is rate limited
        w.fake.fail(
            "conversations.replies", status=429, error="ratelimited", retry_after=45, after=1
        )
        await w.post_event(mention("and on Windows?", ts=follow, thread_ts=root))
        checks = [c for c in w.fake.calls_to("conversations.replies") if c.args.get("oldest")]
        assert (len(w.fake.bot_messages(PUBLIC, root)), len(checks), w.sleeps) == (2, 1, [])


async def test_a_check_slack_fails_to_answer_is_not_retried(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1)), streaming="native") as w:
        root = w.fake.add_message(PUBLIC, "<@U0BOT> how do I install it?", ASKER)
        await w.post_event(mention("how do I install it?", ts=root))
        follow = w.fake.add_message(PUBLIC, "<@U0BOT> and on Windows?", ASKER, thread_ts=root)
        w.sleeps.clear()
        w.fake.fail("conversations.replies", status=503, error="service_unavailable", after=1)
        await w.post_event(mention("and on Windows?", ts=follow, thread_ts=root))
        checks = [c for c in w.fake.calls_to("conversations.replies") if c.args.get("oldest")]
        assert (len(w.fake.bot_messages(PUBLIC, root)), len(checks), w.sleeps) == (2, 1, [])
