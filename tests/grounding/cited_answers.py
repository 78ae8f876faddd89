"""Answers and evidence for grounding tests: an answer citing each source in turn, and the
turn's evidence as ``verify`` asks a registry for it."""

from __future__ import annotations

from bot.models import Answer, Citation, Source


def cited_answer(text: str, *sources: Source) -> Answer:
    """``text`` with citation n naming the n-th of ``sources`` (1-based)."""
    return Answer(
        text=text,
        citations=tuple(
            Citation(n=i, source=s, source_number=i) for i, s in enumerate(sources, start=1)
        ),
    )


class Evidence:
    """A turn's evidence: what ``verify`` reads from a registry."""

    def __init__(self, *sources: Source) -> None:
        self._sources = list(sources)

    def evidence(self) -> list[Source]:
        return self._sources
