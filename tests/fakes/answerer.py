"""ScriptedAnswerer: an Answerer that replays one raw model answer through the REAL core.

Per call it creates a SourceRegistry for the caller's audience, registers ``sources`` in order,
and resolves ``raw`` with the real resolver (``stream()`` feeds it ``chunk`` characters at a
time through StreamResolver). So a connector test gets exactly the Answer production would give
for that model output: 60 citations, 7,000 characters, or a ``<CIT private-id />`` marker that
is dropped as forbidden for a public viewer.

Every call is recorded in ``calls`` as ``(question, audience, history)``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from bot.assistant.base import Reply, ReplyEvent
from bot.errors import BackendError
from bot.models import Exchange, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, StreamResolver, resolve


class ScriptedAnswerer:
    """Implements :class:`bot.assistant.base.Answerer` with a fixed model answer."""

    def __init__(
        self,
        sources: Sequence[Source],
        raw: str,
        *,
        chunk: int = 7,
        policy: ResolvePolicy | None = None,
    ) -> None:
        if chunk < 1:
            raise ValueError("chunk must be at least 1")
        self.sources = tuple(sources)
        self.raw = raw
        self.chunk = chunk
        self.policy = policy or ResolvePolicy()
        self.calls: list[tuple[str, frozenset[str], tuple[Exchange, ...]]] = []

    def _registry(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange]
    ) -> SourceRegistry:
        self.calls.append((question, frozenset(audience), tuple(history)))
        registry = SourceRegistry(audience)
        registry.register_all(self.sources)
        return registry

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        """Resolve the whole answer at once."""
        registry = self._registry(question, audience, history)
        return Reply(resolve(self.raw, registry, self.policy), registry.to_json())

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        """Stream the answer ``chunk`` characters at a time, then one Reply."""
        registry = self._registry(question, audience, history)
        resolver = StreamResolver(registry, self.policy)
        for start in range(0, len(self.raw), self.chunk):
            for event in resolver.feed(self.raw[start : start + self.chunk]):
                yield event
            await asyncio.sleep(0)
        events, answer = resolver.finish()
        for event in events:
            yield event
        yield Reply(answer, registry.to_json())


class GatedAnswerer:
    """Answers (or streams) like ``inner`` once ``gate`` is set; ``started`` is set when asked (a
    test holds an answer in flight: a restart, a drain, a deletion or a topic that moves
    meanwhile)."""

    def __init__(self, inner: ScriptedAnswerer) -> None:
        self.inner = inner
        self.gate = asyncio.Event()
        self.started = asyncio.Event()

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.started.set()
        await self.gate.wait()
        return await self.inner.reply(question, audience, history)

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self.started.set()
        await self.gate.wait()
        async for event in self.inner.stream(question, audience, history):
            yield event


class BrokenAnswerer:
    """Streams ``pieces`` of text, then fails like a backend that went away (none: it fails
    before saying anything, like a backend that is down); ``reply`` fails at once."""

    def __init__(self, pieces: Sequence[str] = ("Let me check",)) -> None:
        self.pieces = list(pieces)

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        raise BackendError("backend down")

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        for piece in self.pieces:
            yield TextDelta(piece)
        raise BackendError("backend down")
