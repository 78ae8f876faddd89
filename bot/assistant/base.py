"""The seam between connectors and whatever answers questions.

Every connector depends only on :class:`Answerer`: the real :class:`bot.assistant.Assistant`
implements it, and tests may pass any object with the same two methods (for example one that
replays a scripted model answer through the real registry and resolver).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.models import Answer, CitationAdded, Exchange, TextDelta


@dataclass(frozen=True)
class Reply:
    """One answered turn: the resolved Answer and the turn's registry (``to_json`` form)."""

    answer: Answer
    registry: dict[str, Any]


ReplyEvent = TextDelta | CitationAdded | Reply


class Answerer(Protocol):
    """Answers a question for a viewer who may see sources in ``audience``."""

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        """Answer in one go."""
        ...

    def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        """Answer as a stream: TextDelta and CitationAdded events, then exactly one Reply."""
        ...
