"""A queued answer that Slack only rate-limits is not given up like one that keeps failing.

A 429 with ``Retry-After`` says "later", not "no": a busy workspace can rate-limit the same
answer many times. Those tries wait as long as Slack asked and do not use up the 20 failed
tries; they are bounded by time instead (``MAX_RATE_LIMITED_SECONDS`` from the answer's first
try), after which the answer is dropped and its turn marked failed, so none is tried forever.

The outbox's waits are passed by moving a clock on (the store's, and the outbox's own for how
long an answer has waited), never by sleeping.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest

from bot.connectors.slack_outbox import SlackOutbox
from bot.connectors.slack_outbox_tries import (
    MAX_ATTEMPTS,
    MAX_RATE_LIMITED_SECONDS,
    MAX_RETRY_SECONDS,
    judge,
)
from bot.errors import RateLimitedError
from bot.store import OutboxItem
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    SlackWorld,
    answer_citing,
    mention,
    slack_world_at,
)

# Longer than the client waits itself (retry_max_seconds: 60), so each 429 reaches the outbox.
RETRY_AFTER = 600
HOUR = 3600.0


class Clock:
    """The wall clock, ``ahead`` seconds later: the test moves it past each wait."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead

    def pass_wait(self, world: SlackWorld) -> None:
        """Move on until the queued answer's next try is due."""
        [item] = world.store.pending("slack")
        self.ahead += max(0.0, item.next_attempt_at - self()) + 1.0


def turn_statuses(world: SlackWorld, ts: str) -> list[str]:
    return [t.status for t in world.store.turns(f"slack:T0TEAM:{PUBLIC}:{ts}")]


def rate_limited_posts(world: SlackWorld) -> int:
    return sum(1 for call in world.fake.calls_to("chat.postMessage") if call.status == 429)


async def test_an_answer_rate_limited_more_than_twenty_times_still_arrives(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    ts = "1600000000.041000"
    tries = MAX_ATTEMPTS + 5
    async with slack_world_at(clock, tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.fail("chat.postMessage", status=429, retry_after=RETRY_AFTER, times=tries)
        await world.post_event(mention("busy", ts=ts))
        with caplog.at_level(logging.INFO, logger="bot.connectors.slack_outbox_tries"):
            for _ in range(tries - 1):
                clock.pass_wait(world)
                assert await world.connector.outbox.flush() == 0
        [queued] = world.store.pending("slack")
        assert queued.attempts == 0  # not one failed try
        assert rate_limited_posts(world) == tries
        assert caplog.text.count("(not counted as a failed try)") == tries - 1
        clock.pass_wait(world)
        assert await world.connector.outbox.flush() == 1
        [answer] = world.fake.bot_messages(PUBLIC, thread_ts=ts)
        assert answer["text"] == "Fact 1.[1]"
        assert rate_limited_posts(world) == tries
        assert world.store.pending("slack") == []
        assert turn_statuses(world, ts) == ["done"]


async def test_an_answer_rate_limited_without_end_is_dropped_at_the_time_bound(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    ts = "1600000000.042000"
    async with slack_world_at(clock, tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.fail("chat.postMessage", status=429, retry_after=RETRY_AFTER, times=None)
        await world.post_event(mention("busy", ts=ts))
        settings = world.connector.settings
        # the same clock tells the outbox how long the answer has waited
        outbox = SlackOutbox(world.store, world.connector.poster, settings, clock=clock)
        hours = int(MAX_RATE_LIMITED_SECONDS // HOUR)
        for _ in range(hours - 1):  # a try an hour, the last one just short of the bound
            clock.ahead += HOUR
            assert await outbox.flush() == 0
        [queued] = world.store.pending("slack")
        assert queued.attempts == 0
        assert rate_limited_posts(world) == hours > MAX_ATTEMPTS
        assert turn_statuses(world, ts) == ["done"]  # handed over, waiting in the outbox
        clock.ahead += HOUR
        with caplog.at_level(logging.ERROR, logger="bot.connectors.slack_outbox_tries"):
            assert await outbox.flush() == 0
        assert "still rate-limiting it 24.0 hours after its first try" in caplog.text
        assert world.store.pending("slack") == []
        dropped = world.store.outbox_item(queued.id)
        assert dropped is not None and dropped.status == "dead"
        assert turn_statuses(world, ts) == ["failed"]
        assert world.fake.bot_messages(PUBLIC, thread_ts=ts) == []
        # dropped for good: no try after the bound
        posts = len(world.fake.calls_to("chat.postMessage"))
        clock.ahead += HOUR
        assert await outbox.flush() == 0
        assert len(world.fake.calls_to("chat.postMessage")) == posts


async def test_failed_tries_still_run_out_with_rate_limited_ones_in_between(
    tmp_path: Path,
) -> None:
    clock = Clock()
    ts = "1600000000.043000"
    limited = 5
    async with slack_world_at(clock, tmp_path, CannedAnswerer(answer_citing(1))) as world:
        fake = world.fake
        fake.fail("chat.postMessage", error="fatal_error")  # queued, as Slack refused it now
        await world.post_event(mention("busy", ts=ts))
        for _ in range(limited):
            fake.fail("chat.postMessage", status=429, retry_after=RETRY_AFTER)
            clock.pass_wait(world)
            assert await world.connector.outbox.flush() == 0
        for _ in range(MAX_ATTEMPTS - 1):
            fake.fail("chat.postMessage", error="fatal_error")
            clock.pass_wait(world)
            assert await world.connector.outbox.flush() == 0
        [queued] = world.store.pending("slack")
        assert queued.attempts == MAX_ATTEMPTS - 1  # the rate-limited tries are not counted
        assert rate_limited_posts(world) == limited
        fake.fail("chat.postMessage", error="fatal_error")
        clock.pass_wait(world)
        assert await world.connector.outbox.flush() == 0
        assert world.store.pending("slack") == []
        assert turn_statuses(world, ts) == ["failed"]
        # the apology went out instead
        [apology] = fake.bot_messages(PUBLIC, thread_ts=ts)
        assert apology["text"] == world.connector.settings.apology


def test_rate_limited_tries_of_an_item_without_its_first_try_time_count_as_failed() -> None:
    """An item queued before the first try's time was kept has no time bound: its rate-limited
    tries count as failed ones, as they always did, so it is never tried forever."""
    item = OutboxItem("q1", "slack", {}, "pending", MAX_ATTEMPTS - 1, 0.0, None)
    error = RateLimitedError("Slack chat.postMessage: ratelimited", retry_after=RETRY_AFTER)
    verdict = judge(item, error, since=None, now=0.0, poll_seconds=30.0)
    assert verdict.give_up and verdict.counted
    assert verdict.failed == MAX_ATTEMPTS
    assert verdict.wait == MAX_RETRY_SECONDS
    timed = judge(item, error, since=0.0, now=HOUR, poll_seconds=30.0)
    assert not timed.give_up and not timed.counted
    assert timed.failed == MAX_ATTEMPTS - 1
