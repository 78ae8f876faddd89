"""A queued rest of an answer the outbox drops for good takes the answer's posted parts with it.

Slack took the first messages of a long answer, then stopped taking them for a while (a 5xx
that outlasted the retries): the rest was queued. When the outbox later drops that rest for
good (Slack refuses it for good, or it is still rate-limited at the time bound), the parts
already posted would stay, citing ``[n]`` with no source list. They are withdrawn as a failed
answer's are: the first becomes the apology, the others are deleted.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.connectors.slack_outbox import SlackOutbox
from bot.connectors.slack_outbox_tries import MAX_RATE_LIMITED_SECONDS
from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    Json,
    SlackWorld,
    mention,
    slack_world,
    slack_world_at,
)
from tests.connectors.test_slack_refused_later_parts import (
    APOLOGY_START,
    cited_sections,
    listed_sources,
    long_answer,
)

# The fake answers a hung call after this long, past the client's timeout (1 s).
HANG = 1.5
# Longer than the client waits itself (retry_max_seconds: 60), so the 429 reaches the outbox.
RETRY_AFTER = 600


def apologies_only(messages: list[Json]) -> bool:
    return [m["text"][: len(APOLOGY_START)] for m in messages] == [APOLOGY_START]


async def ask_and_queue_the_rest(world: SlackWorld, mode: str) -> str:
    """Ask for the long answer: Slack takes its first two messages (in native mode the stream
    is the first), then fails the third past the client's retries, so the rest is queued.
    Returns the question's ts."""
    world.fake.fail("chat.postMessage", after=1 if mode == "native" else 2, status=500, times=4)
    ts = world.fake.add_message(PUBLIC, "<@U0BOT> q", ASKER)
    await world.post_event(mention("q", ts=ts))
    assert len(world.store.pending("slack")) == 1
    parts = world.fake.bot_messages(PUBLIC, ts)
    assert len(parts) == 2 and cited_sections(parts) and not listed_sources(parts)
    return ts


@pytest.mark.parametrize("mode", ["none", "edit", "native"])
async def test_a_queued_rest_refused_for_good_withdraws_the_posted_parts(
    tmp_path: Path, mode: str
) -> None:
    async with slack_world(tmp_path, long_answer(), streaming=mode) as world:
        ts = await ask_and_queue_the_rest(world, mode)
        world.fake.fail("chat.postMessage", error="invalid_blocks")
        assert await world.connector.outbox.flush() == 0
        assert world.store.pending("slack") == []
        left = world.fake.bot_messages(PUBLIC, ts)
        assert apologies_only(left), [m["text"][:40] for m in left]
        assert cited_sections(left) == []
        assert not any(m.get("streaming") for m in left)


async def test_a_queued_rest_the_workspace_restricts_leaves_the_apology_in_the_first_part(
    tmp_path: Path,
) -> None:
    """restricted_action closes the conversation to new posts, but Slack still takes the edit:
    the first part becomes the apology (no new message could say it)."""
    async with slack_world(tmp_path, long_answer()) as world:
        ts = await ask_and_queue_the_rest(world, "none")
        first = world.fake.bot_messages(PUBLIC, ts)[0]["ts"]
        world.fake.fail("chat.postMessage", error="restricted_action", times=None)
        assert await world.connector.outbox.flush() == 0
        left = world.fake.bot_messages(PUBLIC, ts)
        assert apologies_only(left) and left[0]["ts"] == first


async def test_a_queued_rest_dropped_at_the_rate_limit_bound_withdraws_the_posted_parts(
    tmp_path: Path,
) -> None:
    """The other way to drop an answer: Slack still rate-limits it a day after its first try."""
    ahead = 0.0

    def clock() -> float:
        return time.time() + ahead

    async with slack_world_at(clock, tmp_path, long_answer()) as world:
        ts = await ask_and_queue_the_rest(world, "none")
        settings = world.connector.settings
        outbox = SlackOutbox(world.store, world.connector.poster, settings, clock=clock)
        ahead = MAX_RATE_LIMITED_SECONDS + 60.0
        world.fake.fail("chat.postMessage", status=429, retry_after=RETRY_AFTER)
        assert await outbox.flush() == 0
        assert world.store.pending("slack") == []
        left = world.fake.bot_messages(PUBLIC, ts)
        assert apologies_only(left), [m["text"][:40] for m in left]


async def test_a_part_slack_took_unseen_is_withdrawn_with_the_others(tmp_path: Path) -> None:
    """The third message timed out though Slack posted it: the outbox finds it by its delivery
    key before resending, and when Slack then refuses the fourth for good, it goes too."""
    async with slack_world(tmp_path, long_answer(), request_timeout_seconds=1.0) as world:
        world.fake.fail("chat.postMessage", after=2, hang=HANG, processed=True)
        ts = world.fake.add_message(PUBLIC, "<@U0BOT> q", ASKER)
        await world.post_event(mention("q", ts=ts))
        [queued] = world.store.pending("slack")
        assert len(queued.payload["messages"]) >= 2  # the lost one and at least one more
        assert len(world.fake.bot_messages(PUBLIC, ts)) == 3
        world.fake.fail("chat.postMessage", error="invalid_blocks")
        assert await world.connector.outbox.flush() == 0
        left = world.fake.bot_messages(PUBLIC, ts)
        assert apologies_only(left), [m["text"][:40] for m in left]
