"""A queued answer gets its thread within a few passes, however busy answers keep the thread.

An outbox pass only takes a thread no answer holds or waits for: in a thread some answer is
always being posted to when a pass comes, a queued answer was left pass after pass, for good.
Now the passes that leave it are counted, and after three the outbox waits its turn there like
an answer: its answer is posted right after the answers ahead of it, before any that come later,
while the passes go on posting into other threads. Stopping the outbox gives up its turn.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    SlackWorld,
    answer_citing,
    mention,
    settle,
    slack_world,
)
from tests.connectors.test_slack_answers_in_one_thread import until
from tests.connectors.test_slack_outbox_thread_turns import order_in_thread
from tests.fakes.topic_answerer import TopicAnswerer

# Passes that may find the thread taken before the queued answer is sure of its turn (README).
PASSES = 3


async def queue_an_answer(world: SlackWorld) -> str:
    """Ask in a new thread while Slack fails every try of the answer: it is queued whole.
    Returns the thread's root."""
    root = world.fake.add_message(PUBLIC, "<@U0BOT> deploy?", ASKER)
    world.fake.fail("chat.postMessage", status=500, times=4)  # the try and the client's retries
    await world.post_event(mention("deploy?", ts=root))
    assert world.fake.bot_messages(PUBLIC, root) == []
    return root


async def pass_in_a_busy_thread(
    world: SlackWorld, answerer: TopicAnswerer, root: str, n: int
) -> None:
    """The ``n``-th outbox pass, while a Beta answer is shown in thread ``root`` (it holds the
    thread) and another, asked then, is written to its end and waits behind it; then both are
    posted, and whatever the outbox does in the thread meanwhile is over."""
    fake, outbox = world.fake, world.connector.outbox
    shown = answerer.hold["Beta"] = asyncio.Event()
    b = fake.add_message(PUBLIC, f"<@U0BOT> beta {n}?", ASKER, thread_ts=root)
    await world.post_event(mention(f"beta {n}?", ts=b, thread_ts=root), wait=False)
    await until(lambda: "Beta" in answerer.held)  # shown, and held there
    assert await outbox.flush() == 0  # the thread is taken
    del answerer.hold["Beta"]  # the next answer is written to its end at once
    c = fake.add_message(PUBLIC, f"<@U0BOT> more beta {n}?", ASKER, thread_ts=root)
    await world.post_event(mention(f"more beta {n}?", ts=c, thread_ts=root), wait=False)
    await until(lambda: answerer.finished.count("Beta") == 2 * n - 1)
    shown.set()
    await settle(world.connector)
    await until(lambda: len(outbox.places) == 0)  # the outbox is done there too


@pytest.mark.parametrize("mode", ["edit", "native"])
async def test_a_queued_rest_gets_a_thread_answers_keep_busy_within_three_passes(
    tmp_path: Path, mode: str
) -> None:
    """Each pass finds a Beta answer shown in the thread, and another one written to its end
    and waiting for the thread behind it; the stream of answers never ends. Alpha's rest comes
    after the answer the outbox found ahead of it at its third pass, before the one behind."""
    answerer = TopicAnswerer()
    async with slack_world(tmp_path, answerer, streaming=mode) as world:
        fake = world.fake
        root = fake.add_message(PUBLIC, "<@U0BOT> hello", ASKER)
        a = fake.add_message(PUBLIC, "<@U0BOT> tell me about alpha", ASKER, thread_ts=root)
        # Slack takes Alpha's first messages, then fails the next past the client's retries
        fake.fail("chat.postMessage", after=1 if mode == "native" else 2, status=500, times=4)
        await world.post_event(mention("tell me about alpha", ts=a, thread_ts=root))
        assert len(world.store.pending("slack")) == 1
        passes = 0
        while world.store.pending("slack") and passes <= PASSES:
            passes += 1
            await pass_in_a_busy_thread(world, answerer, root, passes)
        assert world.store.pending("slack") == [], f"still queued after {passes} busy passes"
        assert passes == PASSES
        order = order_in_thread(world, root)
        # Alpha's first parts, two Beta answers a pass, Alpha's rest, the last Beta answer
        assert re.fullmatch(r"AAB+A+B+", order), order


async def test_waiting_for_one_thread_holds_no_other_thread_back(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(2))) as world:
        outbox = world.connector.outbox
        busy = await queue_an_answer(world)
        answer = outbox.places.claim((PUBLIC, busy))  # an answer being shown there
        assert answer.try_take()
        for _ in range(PASSES):
            assert await outbox.flush() == 0
        free = await queue_an_answer(world)
        assert await outbox.flush() == 1  # not held up by the thread the outbox waits for
        assert len(world.fake.bot_messages(PUBLIC, free)) == 1
        assert world.fake.bot_messages(PUBLIC, busy) == []
        answer.release()
        assert len(outbox.places) == 1  # handed on to the outbox, which waited its turn
        await until(lambda: len(outbox.places) == 0)
        assert len(world.fake.bot_messages(PUBLIC, busy)) == 1
        assert world.store.pending("slack") == []


async def test_a_stopped_outbox_gives_its_turn_up(tmp_path: Path) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(2))) as world:
        connector = world.connector
        await connector.start()  # the outbox's run: stopping the connector cancels it
        busy = await queue_an_answer(world)
        answer = connector.outbox.places.claim((PUBLIC, busy))
        assert answer.try_take()
        for _ in range(PASSES):
            assert await connector.outbox.flush() == 0
        await connector.stop()
        answer.release()
        assert len(connector.outbox.places) == 0  # nobody waited for the thread any more
        assert len(world.store.pending("slack")) == 1  # queued still, for the next start
        assert world.fake.bot_messages(PUBLIC, busy) == []


async def test_an_answer_the_outbox_waits_behind_may_queue_its_own_rest(tmp_path: Path) -> None:
    """No deadlock: Beta, holding the thread the outbox waits for, has its own rest queued (it
    never waits for the outbox), lets the thread go, and the outbox posts both rests in order."""
    answerer = TopicAnswerer()
    shown = answerer.hold["Beta"] = asyncio.Event()
    async with slack_world(tmp_path, answerer, streaming="edit") as world:
        fake, outbox = world.fake, world.connector.outbox
        root = fake.add_message(PUBLIC, "<@U0BOT> hello", ASKER)
        a = fake.add_message(PUBLIC, "<@U0BOT> tell me about alpha", ASKER, thread_ts=root)
        b = fake.add_message(PUBLIC, "<@U0BOT> tell me about beta", ASKER, thread_ts=root)
        fake.fail("chat.postMessage", after=2, status=500, times=4)
        await world.post_event(mention("tell me about alpha", ts=a, thread_ts=root))
        await world.post_event(mention("tell me about beta", ts=b, thread_ts=root), wait=False)
        await until(lambda: "Beta" in answerer.held)
        for _ in range(PASSES):
            assert await outbox.flush() == 0
        # Beta's first message is shown; every later one fails past the client's retries
        fake.fail("chat.postMessage", status=500, times=4)
        shown.set()
        await settle(world.connector)
        await until(lambda: len(outbox.places) == 0)
        assert world.store.pending("slack") == []
        order = order_in_thread(world, root)
        assert re.fullmatch(r"AABA+B+", order), order
