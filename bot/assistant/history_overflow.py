"""A prompt longer than the model's context: which error it raises, and what the operator is told.

Asking again sends the same history and fails the same way, so a channel tells the viewer to
start a new conversation instead of "try again" (the operator's log line names the settings:
:func:`bot.assistant.openai_errors.overflow_hint`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import BackendError, HistoryOverflowError


def overflow_error(message: str, history: bool) -> BackendError:
    """The error for a prompt that did not fit: :class:`HistoryOverflowError` when the
    conversation's history was in it (``history``), a plain :class:`BackendError` otherwise."""
    return HistoryOverflowError(message) if history else BackendError(message)


@dataclass(frozen=True)
class Overflow:
    """What a model step says when its prompt does not fit: ``hint``, the settings the operator
    can change (said after the endpoint's reason), and whether the conversation's ``history``
    is in the prompt."""

    hint: str
    history: bool
