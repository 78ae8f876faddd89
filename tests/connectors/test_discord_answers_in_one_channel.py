"""Two long answers in one Discord channel are posted one after the other, never interleaved."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.topic_answerer import TopicAnswerer, topic_of

__all__ = ["harness"]


def bot_messages(h: Harness) -> list[dict[str, object]]:
    """The bot's messages in #general, in channel order."""
    return sorted(h.fake.messages_in(h.world.general), key=lambda m: int(m["id"]))


def order_in_general(h: Harness) -> str:
    """Whose each of the bot's messages in #general is, in channel order ("AAABB")."""
    return "".join(topic_of(str(m["content"])) for m in bot_messages(h))


def one_after_the_other(order: str) -> bool:
    """Each answer's messages follow one another (its text, then its own source list)."""
    a, b = order.count("A"), order.count("B")
    return a > 1 and b > 1 and order in ("A" * a + "B" * b, "B" * b + "A" * a)


async def until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition`` holds (a safety bound, not a timing check)."""
    async with asyncio.timeout(30):
        while not condition():
            await asyncio.sleep(0.01)


async def test_two_long_answers_in_one_discord_channel_do_not_interleave(harness: Harness) -> None:
    h = harness
    h.connector.services.assistant = TopicAnswerer()
    w = h.world
    qa = h.fake.user_message(w.general, w.alice, "tell me about alpha", mention_bot=True)
    qb = h.fake.user_message(w.general, w.bob, "tell me about beta", mention_bot=True)
    await asyncio.gather(h.deliver(qa), h.deliver(qb))
    assert one_after_the_other(order_in_general(h))


async def test_a_later_answer_is_written_while_the_first_is_shown_and_posted_after_it(
    harness: Harness,
) -> None:
    """Only posting waits: Beta is written to its end while Alpha, which started showing first,
    still holds the channel; Beta shows nothing until Alpha is complete."""
    h = harness
    answerer = TopicAnswerer()
    alpha_goes_on = answerer.hold["Alpha"] = asyncio.Event()
    h.connector.services.assistant = answerer
    w = h.world
    qa = h.fake.user_message(w.general, w.alice, "tell me about alpha", mention_bot=True)
    qb = h.fake.user_message(w.general, w.bob, "tell me about beta", mention_bot=True)
    alpha = asyncio.create_task(h.deliver(qa))
    await until(lambda: "Alpha" in answerer.held)  # Alpha's first piece was shown
    beta = asyncio.create_task(h.deliver(qb))
    await until(lambda: "Beta" in answerer.finished)
    assert "B" not in order_in_general(h)
    alpha_goes_on.set()
    await asyncio.gather(alpha, beta)
    order = order_in_general(h)
    assert one_after_the_other(order) and order.startswith("A"), order


async def test_an_answer_that_fails_gives_the_channel_up_to_the_next(harness: Harness) -> None:
    """Alpha fails while it holds the channel: its apology takes its place, then Beta is posted
    whole."""
    h = harness
    answerer = TopicAnswerer()
    answerer.broken.add("Alpha")
    h.connector.services.assistant = answerer
    w = h.world
    qa = h.fake.user_message(w.general, w.alice, "tell me about alpha", mention_bot=True)
    qb = h.fake.user_message(w.general, w.bob, "tell me about beta", mention_bot=True)
    await asyncio.gather(h.deliver(qa), h.deliver(qb))
    contents = [str(m["content"]) for m in bot_messages(h)]
    apology = h.connector.settings.failure_message
    assert contents.count(apology) == 1
    order = "".join(topic_of(c) for c in contents if c != apology)
    assert order == "B" * len(order) and len(order) > 1
