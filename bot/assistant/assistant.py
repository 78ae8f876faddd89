"""The Assistant: one turn = a fresh registry, a backend writing markers, the resolver, hooks.

``stream`` feeds the backend's text to :class:`bot.resolver.StreamResolver` and yields its
TextDelta / CitationAdded events, then one :class:`Reply`. ``reply`` resolves the whole text at
once; both give the same Answer. A backend whose answers come from a model told to cite (a true
``model_cites`` attribute: the OpenAI backend) is resolved with ``ResolvePolicy.model_cites``.
After resolving, every ``postprocess`` hook runs in order on the Answer — this is the single
call site for grounding (``bot.grounding.verify``), which :meth:`Assistant.from_settings`
installs according to the ``grounding`` settings. Last, a quoted
citation of a passage that spans PDF pages is narrowed to the page its quote is on
(:mod:`bot.knowledge.page_spans`), after grounding since grounding may choose the quote; a
streamed citation that already has its quote is narrowed as it is emitted.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from contextlib import aclosing
from pathlib import Path

from bot.assistant.base import Reply, ReplyEvent
from bot.assistant.cache import ToolCache
from bot.assistant.extractive import ExtractiveBackend
from bot.assistant.tools import Toolbox
from bot.assistant.turn import Backend, StepEnd, Turn
from bot.config import Settings
from bot.errors import KnowledgeIndexError
from bot.knowledge.audience import viewer_audience
from bot.knowledge.index import KnowledgeIndex
from bot.knowledge.page_spans import PageStarts, narrow_answer, narrow_citation
from bot.knowledge.records import RecordTables
from bot.models import Answer, CitationAdded, Exchange, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, StreamResolver

log = logging.getLogger(__name__)

Postprocess = Callable[[Answer, SourceRegistry], Answer]


class Assistant:
    """Answers questions from the knowledge base for a viewer (implements ``Answerer``)."""

    def __init__(
        self,
        settings: Settings,
        index: KnowledgeIndex | str | Path | None,
        backend: Backend | None = None,
        *,
        records: RecordTables | None = None,
        cache: ToolCache | None = None,
        postprocess: Sequence[Postprocess] = (),
    ) -> None:
        self.settings = settings
        self.backend: Backend = backend or ExtractiveBackend(settings.assistant.max_sentences)
        self.cache = cache if cache is not None else ToolCache(settings.assistant.cache_size)
        if records is None and settings.index.records:
            records = RecordTables(settings.index.records)
        self.toolbox = Toolbox(index, records, self.cache, settings.assistant.top_k)
        self.policy = ResolvePolicy.from_settings(settings.resolve)
        self.postprocess = list(postprocess)

    @classmethod
    def from_settings(cls, settings: Settings, records: RecordTables | None = None) -> Assistant:
        """The configured backend over the index at ``index.path``, with grounding installed.

        A missing index is not an error here (the server can start first); an index from an
        older schema is (``KnowledgeIndexError`` with the rebuild hint). ``records``: the tables
        of ``index.records`` when already read (``check_tables``), else read on first use.
        """
        from bot.grounding import GroundingPolicy, verify

        path = Path(settings.index.path)
        index: KnowledgeIndex | Path = KnowledgeIndex(path) if path.exists() else path
        backend: Backend
        if settings.assistant.backend == "openai":
            from bot.assistant.openai_backend import OpenAIBackend

            backend = OpenAIBackend(settings.assistant.openai)
        else:
            backend = ExtractiveBackend(settings.assistant.max_sentences)
        grounding = GroundingPolicy.from_settings(settings.grounding)

        def ground(answer: Answer, registry: SourceRegistry) -> Answer:
            return verify(answer, registry, grounding)

        hooks: list[Postprocess] = [] if grounding.mode == "off" else [ground]
        return cls(settings, index, backend, records=records, postprocess=hooks)

    def _turn(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange], stream: bool
    ) -> Turn:
        return Turn(
            question=question,
            history=tuple(history),
            registry=SourceRegistry(viewer_audience(audience)),
            toolbox=self.toolbox,
            stream=stream,
            key_word=self.settings.resolve.key_word,
        )

    def _finish(self, answer: Answer, registry: SourceRegistry) -> Answer:
        for hook in self.postprocess:
            answer = hook(answer, registry)
        return narrow_answer(answer, self._page_starts)

    def _page_starts(self, source: Source) -> PageStarts | None:
        try:
            index = self.toolbox.index
        except KnowledgeIndexError:
            return None  # a page map only sharpens a citation: never fail an answer for it
        return index.page_starts(source) if index is not None else None

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        """Answer in one go: the resolved Answer and the turn's registry."""
        turn = self._turn(question, audience, history, stream=False)
        # closed here, not left to the garbage collector: an async generator abandoned at its
        # last yield is finalized by a task of its own, which outlives a closed event loop
        async with aclosing(self._resolve(turn)) as events:
            async for event in events:
                if isinstance(event, Reply):
                    return event
        raise AssertionError("the resolver always ends with a Reply")  # pragma: no cover

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        """TextDelta and CitationAdded events as they become certain, then one Reply."""
        async for event in self._resolve(self._turn(question, audience, history, stream=True)):
            yield event

    async def _resolve(self, turn: Turn) -> AsyncGenerator[ReplyEvent, None]:
        # One path for both: the resolver reads the model's text as it arrives and decides per
        # marker whether bare "[n]" is a citation (only once a tool has registered a source,
        # unless a model told to cite wrote it: _policy), so reply() and stream() give the same
        # Answer for the same model output.
        resolver = StreamResolver(turn.registry, self._policy())
        async for text in self.backend.generate(turn):
            # at a step's end, before its tools register more sources, the gathered text is
            # scanned: what the model wrote is resolved against the sources it had seen
            events = resolver.flush() if isinstance(text, StepEnd) else resolver.feed(text)
            for event in events:
                yield self._narrowed(event)
        events, answer = resolver.finish()
        for event in events:
            yield self._narrowed(event)
        yield Reply(self._finish(answer, turn.registry), turn.registry.to_json())

    def _policy(self) -> ResolvePolicy:
        """The configured policy, with ``model_cites`` for a backend whose answers come from a
        model told to cite with ``[n]`` markers (it says so with a true ``model_cites``
        attribute): a number such a model writes where no source has it is an invented
        citation, dropped, even while the registry is empty (see ``bot.resolver``)."""
        if getattr(self.backend, "model_cites", False) is True and not self.policy.model_cites:
            return dataclasses.replace(self.policy, model_cites=True)
        return self.policy

    def _narrowed(self, event: ReplyEvent) -> ReplyEvent:
        if not isinstance(event, CitationAdded):
            return event
        citation = narrow_citation(event.citation, self._page_starts)
        return event if citation is event.citation else CitationAdded(citation)

    async def answer(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Answer:
        """Just the Answer."""
        return (await self.reply(question, audience, history)).answer
