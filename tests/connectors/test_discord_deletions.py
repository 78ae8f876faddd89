"""A question deleted while it is being answered (by its asker, or a moderator's purge): the
bot stops, and takes back what it already posted for it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest

from bot.assistant.base import Reply, ReplyEvent
from bot.models import Exchange, Source, TextDelta
from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.answerer import ScriptedAnswerer

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


class MidwayAnswerer:
    """Streams a first sentence, then waits for ``gate`` before the rest of ``inner``'s answer."""

    def __init__(self, inner: ScriptedAnswerer) -> None:
        self.inner = inner
        self.gate = asyncio.Event()
        self.midway = asyncio.Event()

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        return await self.inner.reply(question, audience, history)

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        yield TextDelta("Let me look that up. ")
        self.midway.set()  # the consumer came back for more: the first text is on Discord
        await self.gate.wait()
        async for event in self.inner.stream(question, audience, history):
            yield event


def deletion(h: Harness, kind: str, ids: list[str]) -> tuple[str, dict[str, Any]]:
    where = {"channel_id": str(h.world.general), "guild_id": str(h.world.guild)}
    if kind == "MESSAGE_DELETE":
        return kind, {"id": ids[0], **where}
    return kind, {"ids": ids, **where}


@pytest.mark.parametrize("kind", ["MESSAGE_DELETE", "MESSAGE_DELETE_BULK"])
async def test_a_question_deleted_mid_answer_takes_the_answer_with_it(
    harness: Harness, kind: str
) -> None:
    h = harness
    answerer = MidwayAnswerer(ScriptedAnswerer([GUIDE], "Use pip [1]."))
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "buy cheap watches", mention_bot=True)
    chatter = h.fake.user_message(w.general, w.bob, "spam too")
    answering = asyncio.create_task(h.deliver(question))
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    (partial,) = h.fake.messages_in(w.general)
    assert partial["content"].startswith("Let me look that up.")

    for data in (question, chatter):  # a moderator removes the spam
        del h.fake.messages[int(data["id"])]
    await h.fake.dispatch(*deletion(h, kind, [question["id"], chatter["id"]]))
    await asyncio.wait_for(answering, timeout=30)
    answerer.gate.set()

    assert h.fake.messages_in(w.general) == []  # the partial answer was taken back
    assert int(partial["id"]) in h.fake.deleted
    assert [r.content for r in h.fake.created] == [partial["content"]]  # and no apology
    (turn,) = h.store.turns(f"discord:{w.general}:{question['id']}")
    assert turn.status == "failed"


async def test_deleting_another_message_does_not_disturb_an_answer(harness: Harness) -> None:
    h = harness
    answerer = MidwayAnswerer(ScriptedAnswerer([GUIDE], "Use pip [1]."))
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "install?", mention_bot=True)
    other = h.fake.user_message(w.general, w.bob, "off topic")
    answering = asyncio.create_task(h.deliver(question))
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    del h.fake.messages[int(other["id"])]
    await h.fake.dispatch(*deletion(h, "MESSAGE_DELETE", [other["id"]]))
    answerer.gate.set()
    await asyncio.wait_for(answering, timeout=30)
    (message,) = h.fake.messages_in(w.general)
    assert "[Install guide](<https://docs.example.com/install>)" in message["content"]
    (turn,) = h.store.turns(f"discord:{w.general}:{question['id']}")
    assert turn.status == "done"


async def test_an_answer_deleted_while_being_written_is_dropped_without_an_apology(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    answerer = MidwayAnswerer(ScriptedAnswerer([GUIDE], "Use pip [1]."))
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "install?", mention_bot=True)
    answering = asyncio.create_task(h.deliver(question))
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    (partial,) = h.fake.messages_in(w.general)
    del h.fake.messages[int(partial["id"])]  # a moderator removes the bot's reply
    await h.fake.dispatch(*deletion(h, "MESSAGE_DELETE", [partial["id"]]))
    with caplog.at_level(logging.INFO):
        answerer.gate.set()
        await asyncio.wait_for(answering, timeout=30)
    assert h.fake.messages_in(w.general) == []  # no "Sorry, I couldn't answer" either
    (record,) = [r for r in caplog.records if r.name.startswith("bot.") and r.levelno >= 30]
    assert record.exc_info is None and "the message was deleted" in record.getMessage()
    (turn,) = h.store.turns(f"discord:{w.general}:{question['id']}")
    assert turn.status == "failed"
