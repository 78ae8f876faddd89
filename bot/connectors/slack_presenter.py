"""Feeding one answer's events to a Slack sink (see ``slack_stream``), falling back when the
workspace cannot stream natively."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable

from bot.assistant.base import Reply, ReplyEvent
from bot.connectors.slack_stream import AnswerSink, Payload, RenderFn, StreamingUnavailableError
from bot.errors import BackendError, ChannelError
from bot.models import Answer, Citation, CitationAdded, TextDelta

log = logging.getLogger(__name__)


class AnswerPresenter:
    """Feeds an answer's events to a sink, switching to ``fallback()`` if streaming is refused.

    ``sink`` is always the sink currently showing the answer, so a caller that catches a
    failure can ``await presenter.sink.fail()``.
    """

    def __init__(self, sink: AnswerSink, fallback: Callable[[], AnswerSink], render: RenderFn):
        self.sink = sink
        self._fallback = fallback
        self._render = render

    def _switch(self, reason: ChannelError) -> None:
        log.info("native streaming unavailable (%s); falling back", reason)
        self.sink = self._fallback()

    async def run(
        self, events: AsyncIterator[ReplyEvent], turn_id: int | None
    ) -> tuple[Reply, Payload]:
        """Show the answer as it arrives and finish it; returns the Reply and final payload."""
        text = ""
        citations: list[Citation] = []
        reply: Reply | None = None
        async for event in events:
            if isinstance(event, TextDelta):
                text += event.text
                partial = Answer(text=text, citations=tuple(citations))
                try:
                    await self.sink.text(event.text, partial)
                except StreamingUnavailableError as exc:
                    self._switch(exc)
                    await self.sink.text(text, partial)
            elif isinstance(event, CitationAdded):
                citations.append(event.citation)
            elif isinstance(event, Reply):
                reply = event
        if reply is None:
            raise BackendError("the answer stream ended without a final reply")
        payload = self._render(reply.answer)
        # The deltas are the resolver's text; a post-processing hook (grounding's "drop")
        # may still change the final answer's text, and only here are both known. A blank
        # answer counts as revised too: the stream showed nothing, while the payload says
        # that the answer was empty.
        revised = text != reply.answer.text or not text.strip()
        try:
            await self.sink.finish(payload, turn_id, revised=revised)
        except StreamingUnavailableError as exc:
            self._switch(exc)
            await self.sink.finish(payload, turn_id, revised=revised)
        return reply, payload
