"""Two long answers in one Slack thread are posted one after the other, never interleaved."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.connectors.slack_harness import ASKER, PUBLIC, SlackWorld, mention, settle, slack_world
from tests.fakes.topic_answerer import TopicAnswerer, topic_of


def order_in_thread(world: SlackWorld, root: str) -> str:
    """Whose each bot message in the thread is, in thread order ("AAABB")."""
    messages = sorted(world.fake.bot_messages(PUBLIC, root), key=lambda m: float(m["ts"]))
    return "".join(topic_of(str(m["blocks"])) for m in messages)


def one_after_the_other(order: str) -> bool:
    """Each answer's messages follow one another (its text, then its own source list)."""
    a, b = order.count("A"), order.count("B")
    return a > 1 and b > 1 and order in ("A" * a + "B" * b, "B" * b + "A" * a)


async def ask_both(world: SlackWorld) -> str:
    """Ask about alpha, then about beta, in one thread, without waiting; the thread's root."""
    fake = world.fake
    root = fake.add_message(PUBLIC, "<@U0BOT> hello", ASKER)
    a = fake.add_message(PUBLIC, "<@U0BOT> tell me about alpha", ASKER, thread_ts=root)
    b = fake.add_message(PUBLIC, "<@U0BOT> tell me about beta", ASKER, thread_ts=root)
    await world.post_event(mention("tell me about alpha", ts=a, thread_ts=root), wait=False)
    await world.post_event(mention("tell me about beta", ts=b, thread_ts=root), wait=False)
    return root


@pytest.mark.parametrize("mode", ["none", "native", "edit"])
async def test_two_long_answers_in_one_slack_thread_do_not_interleave(
    tmp_path: Path, mode: str
) -> None:
    async with slack_world(tmp_path, TopicAnswerer(), streaming=mode) as world:
        root = await ask_both(world)
        await settle(world.connector)
        assert one_after_the_other(order_in_thread(world, root))
        assert len(world.connector.answering.places) == 0  # forgotten once idle


async def until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition`` holds (a safety bound, not a timing check)."""
    async with asyncio.timeout(30):
        while not condition():
            await asyncio.sleep(0.01)


@pytest.mark.parametrize("mode", ["native", "edit"])
async def test_a_later_answer_is_written_while_the_first_is_shown_and_posted_after_it(
    tmp_path: Path, mode: str
) -> None:
    """Only posting waits: Beta is written to its end while Alpha, which started showing first,
    still holds the thread; Beta shows nothing until Alpha is complete."""
    answerer = TopicAnswerer()
    alpha_goes_on = answerer.hold["Alpha"] = asyncio.Event()
    async with slack_world(tmp_path, answerer, streaming=mode) as world:
        fake = world.fake
        root = fake.add_message(PUBLIC, "<@U0BOT> hello", ASKER)
        a = fake.add_message(PUBLIC, "<@U0BOT> tell me about alpha", ASKER, thread_ts=root)
        b = fake.add_message(PUBLIC, "<@U0BOT> tell me about beta", ASKER, thread_ts=root)
        await world.post_event(mention("tell me about alpha", ts=a, thread_ts=root), wait=False)
        await until(lambda: "Alpha" in answerer.held)  # Alpha's first piece was shown
        await world.post_event(mention("tell me about beta", ts=b, thread_ts=root), wait=False)
        await until(lambda: "Beta" in answerer.finished)
        assert "B" not in order_in_thread(world, root)
        alpha_goes_on.set()
        await settle(world.connector)
        order = order_in_thread(world, root)
        assert one_after_the_other(order) and order.startswith("A"), order


@pytest.mark.parametrize("mode", ["none", "native", "edit"])
async def test_an_answer_that_fails_gives_the_thread_up_to_the_next(
    tmp_path: Path, mode: str
) -> None:
    """Alpha fails while it holds the thread: its apology takes its place, then Beta is posted
    whole, and no thread is held after."""
    answerer = TopicAnswerer()
    answerer.broken.add("Alpha")
    async with slack_world(tmp_path, answerer, streaming=mode) as world:
        root = await ask_both(world)
        await settle(world.connector)
        messages = sorted(world.fake.bot_messages(PUBLIC, root), key=lambda m: float(m["ts"]))
        apologies = [m for m in messages if m["text"] == world.connector.settings.apology]
        order = "".join(topic_of(str(m["blocks"])) for m in messages if m not in apologies)
        assert len(apologies) == 1
        assert order == "B" * len(order) and len(order) > 1
        assert len(world.connector.answering.places) == 0


async def test_answers_queued_while_slack_refuses_give_the_thread_up(tmp_path: Path) -> None:
    """An answer the outbox queues does not keep its thread: the next one is tried (and queued)
    too, and the outbox later posts each whole, one after the other."""
    async with slack_world(tmp_path, TopicAnswerer()) as world:
        world.fake.fail("chat.postMessage", status=500, times=None)
        root = await ask_both(world)
        await settle(world.connector)
        assert len(world.connector.answering.places) == 0
        assert len(world.store.pending("slack")) == 2
        world.fake.recover("chat.postMessage")
        assert await world.connector.outbox.flush() == 2
        assert one_after_the_other(order_in_thread(world, root))
