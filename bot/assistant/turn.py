"""One turn as a backend sees it, and the protocol every backend implements."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from bot.assistant.tools import Toolbox
from bot.models import Exchange
from bot.registry import SourceRegistry


@dataclass(frozen=True)
class Turn:
    """A question, its history, the turn's registry and the tools; ``stream`` asks for deltas."""

    question: str
    history: Sequence[Exchange]
    registry: SourceRegistry
    toolbox: Toolbox
    stream: bool = False
    key_word: str = "source"

    @property
    def audience(self) -> frozenset[str]:
        """The viewer's groups."""
        return frozenset(self.registry.audience)


class StepEnd:
    """Yielded by a backend after a model step's text and before it runs that step's tools.

    Text is resolved against the registry as it is when the text is scanned, and the resolver
    gathers text before scanning it; at a ``StepEnd`` the assistant scans what it gathered
    (:meth:`bot.resolver.StreamResolver.flush`), so text the model wrote before a tool ran can
    never cite a source that tool registers, however the text was chunked.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "STEP_END"


STEP_END: Final = StepEnd()


class Backend(Protocol):
    """Writes the raw answer (with citation markers) for a turn, as text deltas.

    A backend that registers sources between steps (runs tools after writing text) yields
    :data:`STEP_END` before running them.
    """

    name: str

    def generate(self, turn: Turn) -> AsyncIterator[str | StepEnd]:
        """Yield the raw answer text; tools register sources in ``turn.registry`` as they run."""
        ...
