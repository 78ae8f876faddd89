"""Answering: the Assistant, its tools, the tool-result cache, prompts and backends.

``Assistant`` implements :class:`bot.assistant.base.Answerer`; import it from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.assistant.assistant import Assistant

__all__ = ["Assistant"]


def __getattr__(name: str) -> Any:
    # Lazy, so ``from bot.assistant.base import Answerer`` stays import-light for connectors.
    if name == "Assistant":
        from bot.assistant.assistant import Assistant

        return Assistant
    raise AttributeError(name)
