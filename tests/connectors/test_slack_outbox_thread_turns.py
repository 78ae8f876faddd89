"""A queued answer is posted into its thread only between answers, never between one's parts.

Alpha's last messages wait in the outbox (Slack failed them past the client's retries); Alpha
has let the thread go. Beta, asked in the same thread, starts showing and holds the thread while
it is written. An outbox pass meanwhile must not post Alpha's rest below Beta's first part:
it leaves Alpha's rest for a later pass, which posts it once Beta is complete.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.connectors.slack_harness import ASKER, PUBLIC, SlackWorld, mention, settle, slack_world
from tests.connectors.test_slack_answers_in_one_thread import until
from tests.fakes.topic_answerer import TopicAnswerer, topic_of


def order_in_thread(world: SlackWorld, root: str) -> str:
    """Whose each bot message in the thread is, in thread order ("AABBBA"); a message still
    streaming is told by its streamed text."""
    messages = sorted(world.fake.bot_messages(PUBLIC, root), key=lambda m: float(m["ts"]))
    return "".join(topic_of(str(m)) for m in messages)


@pytest.mark.parametrize("mode", ["edit", "native"])
async def test_a_queued_rest_is_not_posted_between_another_answers_parts(
    tmp_path: Path, mode: str
) -> None:
    answerer = TopicAnswerer()
    beta_goes_on = answerer.hold["Beta"] = asyncio.Event()
    async with slack_world(tmp_path, answerer, streaming=mode) as world:
        # the outbox takes its turns in the answers' own registry of threads
        assert world.connector.answering.places is world.connector.outbox.places
        fake, outbox = world.fake, world.connector.outbox
        root = fake.add_message(PUBLIC, "<@U0BOT> hello", ASKER)
        a = fake.add_message(PUBLIC, "<@U0BOT> tell me about alpha", ASKER, thread_ts=root)
        b = fake.add_message(PUBLIC, "<@U0BOT> tell me about beta", ASKER, thread_ts=root)
        # Slack takes Alpha's first two messages (in native mode the stream is the first),
        # then fails the next past the client's retries: the rest is queued
        fake.fail("chat.postMessage", after=1 if mode == "native" else 2, status=500, times=4)
        await world.post_event(mention("tell me about alpha", ts=a, thread_ts=root))
        assert len(world.store.pending("slack")) == 1
        assert len(outbox.places) == 0  # Alpha let its thread go when its rest was queued
        await world.post_event(mention("tell me about beta", ts=b, thread_ts=root), wait=False)
        await until(lambda: "Beta" in answerer.held)  # Beta's first part is shown
        assert order_in_thread(world, root) == "AAB"
        assert await outbox.flush() == 0  # Beta holds the thread: Alpha's rest waits
        assert order_in_thread(world, root) == "AAB"
        assert len(world.store.pending("slack")) == 1
        beta_goes_on.set()
        await settle(world.connector)
        assert await outbox.flush() == 1
        order = order_in_thread(world, root)
        assert re.fullmatch(r"AAB{2,}A+", order), order
        assert world.store.pending("slack") == []
        assert len(outbox.places) == 0
