"""A Slack answer cut short by a killed process, and the next start over what it left.

:class:`HangingAnswerer` streams two pieces of text and then never goes on (the test takes a
snapshot of Slack and the store there, as if the process had been killed); :func:`restarted`
serves that snapshot again with a fresh connector, started and settled, as the next
``citecast serve`` would.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.assistant.base import Answerer, ReplyEvent
from bot.models import Answer, Exchange, TextDelta
from tests.connectors.slack_harness import CannedAnswerer, SlackWorld, settle, slack_world

Json = dict[str, Any]


class HangingAnswerer(CannedAnswerer):
    """Streams the first two pieces of text of its answer (with its citations), then never
    goes on; ``hangs_on(question)`` picks the questions it does this for (all by default),
    the others are answered whole."""

    def __init__(self, answer: Answer, hangs_on: Callable[[str], bool] = lambda _: True) -> None:
        super().__init__(answer, chunk=30)
        self.hangs_on = hangs_on
        self.hung = asyncio.Event()

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        pieces = 0
        async for event in super().stream(question, audience, history):
            yield event
            pieces += isinstance(event, TextDelta)
            if pieces == 2 and self.hangs_on(question):
                self.hung.set()
                await asyncio.Event().wait()


@asynccontextmanager
async def restarted(
    path: Path, answerer: Answerer, messages: dict[str, list[Json]], **slack: Any
) -> AsyncIterator[SlackWorld]:
    """The world of a snapshot taken at ``path`` (its store) with Slack's ``messages``, its
    connector started and settled with ``answerer``."""
    async with slack_world(path, answerer, **slack) as world:
        world.fake.state.messages.update(messages)
        await world.connector.start()
        await settle(world.connector)
        yield world
