"""One turn as a backend sees it, and the protocol every backend implements."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol

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


class Backend(Protocol):
    """Writes the raw answer (with citation markers) for a turn, as text deltas."""

    name: str

    def generate(self, turn: Turn) -> AsyncIterator[str]:
        """Yield the raw answer text; tools register sources in ``turn.registry`` as they run."""
        ...
