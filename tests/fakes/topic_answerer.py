"""TopicAnswerer: long answers about Alpha or Beta, each from its own three sources.

A question naming "alpha" is answered about Alpha, anything else about Beta: 60 paragraphs
(several Slack or Discord messages) citing that topic's sources, through the real resolver
(:class:`tests.fakes.answerer.ScriptedAnswerer`). Two answers posted into one thread can then be
told apart message by message (:func:`topic_of`).

``finished`` lists the topics whose answer was written to its end, in that order (to show that
one answer was written while another was being posted). ``hold`` keeps the named topic's
stream from going past its first piece until the event is set (``held`` lists the topics
waiting there, their first piece shown). A topic in ``broken`` fails like a backend that went
away, after its first piece when streamed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from bot.assistant.base import Reply, ReplyEvent
from bot.errors import BackendError
from bot.models import Exchange, Source
from tests.fakes.answerer import ScriptedAnswerer


def long_raw(topic: str) -> str:
    """The model's answer about ``topic``: 60 paragraphs citing its three sources in turn."""
    return "\n\n".join(
        f"{topic} paragraph {i}: "
        + "this part explains the topic at some length. " * 12
        + f"[{i % 3 + 1}]"
        for i in range(60)
    )


def topic_of(text: str) -> str:
    """Whose message ``text`` is: A (Alpha), B (Beta) or ? (neither)."""
    return "A" if "Alpha" in text else "B" if "Beta" in text else "?"


class TopicAnswerer:
    """Answers about Alpha or Beta (see the module docstring)."""

    def __init__(self, *, chunk: int = 300) -> None:
        self.chunk = chunk
        self.finished: list[str] = []
        self.hold: dict[str, asyncio.Event] = {}
        self.held: set[str] = set()
        self.broken: set[str] = set()

    def _topic(self, question: str) -> str:
        return "Alpha" if "alpha" in question.lower() else "Beta"

    def _inner(self, topic: str) -> ScriptedAnswerer:
        sources = [
            Source(
                id=f"{topic}{k}",
                title=f"{topic} doc {k}",
                url=f"https://docs.example.com/{topic}/{k}",
            )
            for k in range(1, 4)
        ]
        return ScriptedAnswerer(sources, long_raw(topic), chunk=self.chunk)

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        topic = self._topic(question)
        if topic in self.broken:
            raise BackendError("backend down")
        reply = await self._inner(topic).reply(question, audience, history)
        self.finished.append(topic)
        return reply

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        topic = self._topic(question)
        first = True
        async for event in self._inner(topic).stream(question, audience, history):
            if isinstance(event, Reply):
                self.finished.append(topic)  # written to its end
            yield event
            if first and topic in self.hold:
                self.held.add(topic)
                await self.hold[topic].wait()
                self.held.discard(topic)
            if topic in self.broken:
                raise BackendError("backend down")
            first = False
