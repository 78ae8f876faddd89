"""An answer that fails after part of it was posted leaves no half answer on Discord: what
was posted becomes the apology (its first message rewritten, the others deleted).

Found in Discord QA pass 2: a model stream that broke mid-answer, and a final edit Discord
refused with 503 on every try, left the streamed text on Discord (``[1]`` markers with no
source list, or a cut-off word) beside a separate apology, though the README promises never
a half answer and a begun reply already became the note for a question given up at a start.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any

from bot.assistant.base import Reply, ReplyEvent
from bot.errors import BackendError
from bot.models import Exchange, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, StreamResolver
from tests.connectors.discord_edit_helpers import GUIDE
from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discord_api import FakeDiscord

__all__ = ["harness"]

EDIT = r"/messages/\d+$"


class CutOffAnswerer:
    """Streams ``raw`` through the real resolver, then fails like a model stream that broke."""

    def __init__(self, sources: Sequence[Source], raw: str) -> None:
        self.sources = tuple(sources)
        self.raw = raw

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        raise BackendError("the connection to the model endpoint broke")

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        registry = SourceRegistry(audience)
        registry.register_all(self.sources)
        resolver = StreamResolver(registry, ResolvePolicy())
        for event in resolver.feed(self.raw):
            yield event
        await asyncio.sleep(0.3)  # longer than stream_interval: the text is on Discord
        raise BackendError("the connection to the model endpoint broke before the end")


class RefusedFinalEdit:
    """Streams ``inner``'s answer, and has Discord refuse (503) every try of the final edit."""

    def __init__(
        self, inner: ScriptedAnswerer, fake: FakeDiscord, channel: int, tries: int
    ) -> None:
        self.inner = inner
        self.fake = fake
        self.channel = channel
        self.tries = tries
        self.streamed: list[str] = []  # what Discord showed before the final edit

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        return await self.inner.reply(question, audience, history)

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        async for event in self.inner.stream(question, audience, history):
            if isinstance(event, Reply):
                self.streamed = [m["content"] for m in self.fake.messages_in(self.channel)]
                for _ in range(self.tries):
                    self.fake.fail_next("PATCH", EDIT, 503)
            yield event


def replies_to(h: Harness, question: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        m
        for m in h.fake.messages_in(h.world.general)
        if (m.get("message_reference") or {}).get("message_id") == question["id"]
    ]


async def ask(h: Harness) -> dict[str, Any]:
    question = h.fake.user_message(h.world.general, h.world.bob, "install?", mention_bot=True)
    await h.deliver(question)
    return question


async def test_a_stream_that_breaks_leaves_no_citation_without_its_source(
    harness: Harness,
) -> None:
    h = harness
    raw = " ".join(f"Step {i} is described in the guide [1]." for i in range(8)) + "\n\n"
    h.connector.services.assistant = CutOffAnswerer([GUIDE], raw)
    question = await ask(h)
    # the streamed text was on Discord, and is the apology now: one reply, nothing else
    (apology,) = h.fake.messages_in(h.world.general)
    assert apology["content"] == h.connector.settings.failure_message
    assert replies_to(h, question) == [apology]
    assert h.store.turns(f"discord:{h.world.general}:{question['id']}")[0].status == "failed"


async def test_a_long_answer_that_breaks_leaves_one_apology_of_all_its_parts(
    harness: Harness,
) -> None:
    h = harness
    raw = " ".join(f"Step {i} is described at length in the guide [1]." for i in range(120))
    h.connector.services.assistant = CutOffAnswerer([GUIDE], raw + "\n\n")
    await ask(h)
    # the parts streamed so far (over 2,000 characters: several messages) are one apology
    assert [m["content"] for m in h.fake.messages_in(h.world.general)] == [
        h.connector.settings.failure_message
    ]


async def test_a_final_edit_discord_refuses_leaves_no_cut_off_text(harness: Harness) -> None:
    h = harness
    tries = h.connector.settings.max_retries + 1
    inner = ScriptedAnswerer([GUIDE], "Edit-ing the config file is described in the guide [1].")
    answerer = RefusedFinalEdit(inner, h.fake, h.world.general, tries)
    h.connector.services.assistant = answerer
    question = await ask(h)
    assert any(c.startswith("Edit-") for c in answerer.streamed)  # the text was on Discord
    (apology,) = replies_to(h, question)
    assert apology["content"] == h.connector.settings.failure_message
    assert not any(re.search(r"\bEdit", m["content"]) for m in h.fake.messages_in(h.world.general))
