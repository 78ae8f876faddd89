"""Helpers for the tests of edited Discord questions: an answerer that echoes the question
(and can pause mid-answer), a MESSAGE_UPDATE dispatcher that waits for its handling, and one
call for the usual start of such a test (a question asked and answered in #general)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import Any

from bot.assistant.base import Reply, ReplyEvent
from bot.models import Exchange, Source, TextDelta
from tests.connectors.test_discord_harness import Harness
from tests.fakes.answerer import ScriptedAnswerer

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")
STAFF = Source(
    id="salaries",
    title="Salary bands",
    url="https://intra.example.com/salaries",
    audience=("staff",),
)


class EchoAnswerer:
    """Answers "About: <question> [1]." over ``sources`` with the real registry and resolver.

    With ``hold`` (a call number, from 1) that answer streams "Looking. " and then waits for
    ``gate`` (``midway`` is set once that text is on Discord), so a test can act meanwhile.
    """

    def __init__(
        self, sources: Sequence[Source], *, hold: int = 0, template: str = "About: {q} [1]."
    ) -> None:
        self.sources = tuple(sources)
        self.hold = hold
        self.template = template
        self.gate = asyncio.Event()
        self.midway = asyncio.Event()
        self.calls: list[tuple[str, frozenset[str]]] = []

    def _inner(self, question: str) -> ScriptedAnswerer:
        return ScriptedAnswerer(self.sources, self.template.format(q=question))

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.calls.append((question, audience))
        return await self._inner(question).reply(question, audience, history)

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self.calls.append((question, audience))
        if len(self.calls) == self.hold:
            yield TextDelta("Looking. ")
            self.midway.set()  # the consumer came back for more: "Looking." is on Discord
            await self.gate.wait()
        async for event in self._inner(question).stream(question, audience, history):
            yield event


async def edit(h: Harness, data: dict[str, Any]) -> None:
    """Dispatch a MESSAGE_UPDATE and wait until the connector has handled it, leaving the wait
    of an answer still in flight for the same message to its own ``deliver``."""
    mid = int(data["id"])
    done = asyncio.Event()
    previous = h.connector.on_handled

    def handled(message_id: int) -> None:
        if message_id == mid and not done.is_set():
            done.set()  # this edit's handling: not the end of an answer someone awaits
        elif previous is not None:
            previous(message_id)

    h.connector.on_handled = handled
    try:
        await h.fake.dispatch("MESSAGE_UPDATE", data)
        await asyncio.wait_for(done.wait(), timeout=30)
    finally:
        h.connector.on_handled = previous


def mention(h: Harness) -> str:
    return f"<@{h.fake.bot_user['id']}>"


async def answered(
    h: Harness, text: str, sources: Sequence[Source] = (GUIDE,)
) -> tuple[EchoAnswerer, dict[str, Any], dict[str, Any]]:
    """Alice asks ``text`` in #general mentioning the bot, which answers with an EchoAnswerer
    over ``sources``; returns the answerer, the question and the bot's one reply."""
    answerer = EchoAnswerer(sources)
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, text, mention_bot=True)
    await h.deliver(question)
    (reply,) = h.fake.messages_in(w.general)
    return answerer, question, reply


def assert_fixed_in_place(
    h: Harness,
    answerer: EchoAnswerer,
    question: dict[str, Any],
    first: dict[str, Any],
    now: dict[str, Any],
) -> None:
    """The typo'd "how to instal?" edited to "how to install?" was answered again in the bot's
    first reply (``now`` is ``first`` rewritten), pinging nobody, and stored as done."""
    assert now["id"] == first["id"]
    assert "About: how to install?" in now["content"]
    assert "[Install guide](<https://docs.example.com/install>)" in now["content"]
    assert len(h.fake.created) == 1
    assert [q for q, _ in answerer.calls] == ["how to instal?", "how to install?"]
    assert all(r.pings == [] for r in h.fake.created + h.fake.edits)
    turns = h.store.turns(f"discord:{h.world.general}:{question['id']}")
    assert [(t.question, t.status) for t in turns][-1] == ("how to install?", "done")


# an answer too long for one Discord message: it arrives in three or more parts
LONG = "\n\n".join(
    f"Paragraph {i}: " + "citecast keeps every citation right. " * 9 + "[1]" for i in range(12)
)


async def answered_at_length(
    h: Harness, text: str = "tell me all"
) -> tuple[EchoAnswerer, dict[str, Any], list[dict[str, Any]]]:
    """As :func:`answered`, with an answer of several messages; returns them all, in order."""
    answerer = EchoAnswerer((GUIDE,), template="{q} " + LONG)
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, text, mention_bot=True)
    await h.deliver(question)
    return answerer, question, h.fake.messages_in(w.general)
