"""A queued answer waits as long as Slack's 429 asked, from the very first resend on.

Slack asks for a wait with ``Retry-After``; a wait longer than ``retry_max_seconds`` sends the
answer to the outbox. Asking again before the wait is over is refused again (and Slack may
throttle the app harder), so the outbox's first resend honours it too, not only the later ones.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)


async def test_the_first_resend_waits_as_long_as_slack_asked(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.fail("chat.postMessage", status=429, retry_after=600, times=None)
        await world.post_event(mention("busy", ts="1600000000.021000"))
        [queued] = world.store.pending("slack")
        assert queued.next_attempt_at >= time.time() + 500
        assert await world.connector.outbox.flush() == 0
        # the outbox did not ask Slack again while it was told to wait
        assert len(world.fake.calls_to("chat.postMessage")) == 1
        assert world.fake.bot_messages(PUBLIC) == []


async def test_a_rate_limited_answer_is_posted_once_the_wait_is_over(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.fail("chat.postMessage", status=429, retry_after=600)
        await world.post_event(mention("busy", ts="1600000000.022000"))
        [queued] = world.store.pending("slack")
        # the wait is over: make the item due now (the store's clock is the wall clock)
        world.store.mark_failed_attempt(queued.id, "waited", retry_in=0.0)
        assert await world.connector.outbox.flush() == 1
        [answer] = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.022000")
        assert answer["text"] == "Fact 1.[1]"
        assert world.store.pending("slack") == []
