"""A Slack answer shows nothing while another answer is being posted in its thread.

:class:`TurnSink` wraps the sink that shows one answer (``choose_sinks``) with the answer's
:class:`bot.connectors.answer_places.Claim` on its thread, so that two long answers in one
thread are posted one after the other, never part by part in turn. Streamed text takes the
thread if it is free; while another answer holds it, the text is gathered instead of shown, and
the answer is still written meanwhile (the presenter goes on reading it). The final messages
and the apology wait for the thread. Text gathered that way is shown first, in one piece, once
the thread is this answer's: a native stream sees all of its text, in order.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.connectors.answer_places import Claim
from bot.connectors.slack_sinks import AnswerSink, Payload
from bot.models import Answer


class TurnSink:
    """``sink``, showing its answer only while ``claim`` holds the answer's thread."""

    def __init__(self, sink: AnswerSink, claim: Claim) -> None:
        self._sink = sink
        self._claim = claim
        self._held: list[str] = []  # text that came while another answer held the thread
        self._partial: Answer | None = None

    async def text(self, delta: str, partial: Answer) -> None:
        """Show the new text if the thread is free or this answer's; else keep it for later."""
        self._partial = partial
        if not self._claim.try_take():
            self._held.append(delta)
            return
        await self._sink.text(self._with_held(delta), partial)

    async def finish(self, payload: Payload, turn_id: int | None, *, revised: bool) -> None:
        """Wait for the thread, show the text kept so far, then finish as ``sink`` does."""
        await self._claim.take()
        if self._held and self._partial is not None:
            await self._sink.text(self._with_held(""), self._partial)
        await self._sink.finish(payload, turn_id, revised=revised)

    async def fail(self, text: str | None = None) -> None:
        """Wait for the thread, then fail as ``sink`` does (the apology is one of the parts)."""
        await self._claim.take()
        await self._sink.fail(text)

    def _with_held(self, delta: str) -> str:
        held, self._held = "".join(self._held), []
        return held + delta


def turn_sinks(
    sink: AnswerSink, fallback: Callable[[], AnswerSink], claim: Claim
) -> tuple[AnswerSink, Callable[[], AnswerSink]]:
    """``sink`` and ``fallback`` (as ``choose_sinks`` gives them), both posting only while
    ``claim`` (one for the two: they show the same answer) holds the thread."""
    return TurnSink(sink, claim), lambda: TurnSink(fallback(), claim)


__all__ = ["TurnSink", "turn_sinks"]
