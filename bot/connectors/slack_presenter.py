"""Feeding one answer's events to a Slack sink (see ``slack_sinks``), falling back when the
workspace cannot stream natively; :func:`choose_sinks` picks the sinks from ``slack.streaming``."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Mapping

from slack_sdk.web.async_client import AsyncWebClient

from bot.assistant.base import Answerer, Reply, ReplyEvent
from bot.config import SlackSettings
from bot.connectors.slack_client import Sleep
from bot.connectors.slack_delivery import SlackPoster
from bot.connectors.slack_outbox import SlackOutbox
from bot.connectors.slack_sinks import (
    AnswerSink,
    EditSink,
    Payload,
    PlainSink,
    RenderFn,
    StreamingUnavailableError,
)
from bot.connectors.slack_stream import NativeSink
from bot.connectors.slack_thread import SlackThread
from bot.connectors.small_talk import is_small_talk_reply
from bot.errors import BackendError, ChannelError
from bot.models import Answer, Citation, CitationAdded, Exchange, TextDelta
from renderers.base import CitationForm

log = logging.getLogger(__name__)


def choose_sinks(
    settings: SlackSettings,
    client: AsyncWebClient,
    poster: SlackPoster,
    outbox: SlackOutbox,
    thread: SlackThread,
    render: RenderFn,
    sleep: Sleep,
    turn_id: int,
    forms: Callable[[Answer], Mapping[int, CitationForm]] | None = None,
    bot_id: str | None = None,
) -> tuple[AnswerSink, Callable[[], AnswerSink]]:
    """The sink that shows an answer in ``thread`` for ``slack.streaming``, and the one to fall
    back to when native streaming is unavailable (made only if needed); ``forms`` gives the
    citation forms of a partial answer, which say where each marker links (for native
    streaming); ``bot_id`` is the bot's own, which tells its messages from other apps'."""

    def edit() -> AnswerSink:
        interval = settings.edit_interval_seconds
        return EditSink(poster, outbox, thread, render, interval, sleep, turn_id=turn_id)

    def plain() -> AnswerSink:
        return PlainSink(poster, outbox, thread, turn_id=turn_id)

    mode = settings.streaming
    if mode == "native":
        native = NativeSink(
            client, poster, outbox, thread, settings, turn_id=turn_id, forms=forms, bot_id=bot_id
        )
        return native, edit
    if mode == "edit":
        return edit(), edit
    return plain(), plain


async def answer_events(
    answerer: Answerer,
    settings: SlackSettings,
    question: str,
    audience: frozenset[str],
    history: tuple[Exchange, ...],
) -> AsyncIterator[ReplyEvent]:
    """The answer's events for a presenter: streamed, or (``streaming: none``) the whole reply
    at once, since nothing is shown before it is complete."""
    if settings.streaming == "none":
        yield await answerer.reply(question, audience, history)
        return
    async for event in answerer.stream(question, audience, history):
        yield event


def marks_weak(answer: Answer, weak_below: float) -> bool:
    """True when the rendered answer marks a citation ``[n?]``: its support is below
    ``weak_below``, the ``grounding.threshold`` the payload is rendered with
    (``RenderContext.weak_below``)."""
    return any(
        citation.support is not None and citation.support < weak_below
        for citation in answer.citations
    )


class AnswerPresenter:
    """Feeds an answer's events to a sink, switching to ``fallback()`` if streaming is refused.

    ``sink`` is always the sink currently showing the answer, so a caller that catches a
    failure can ``await presenter.sink.fail()``. ``weak_below`` is the ``grounding.threshold``
    that ``render`` marks ``[n?]`` by (:func:`marks_weak`).
    """

    def __init__(
        self,
        sink: AnswerSink,
        fallback: Callable[[], AnswerSink],
        render: RenderFn,
        *,
        weak_below: float,
    ):
        self.sink = sink
        self._fallback = fallback
        self._render = render
        self._weak_below = weak_below

    def _switch(self, reason: ChannelError) -> None:
        log.info("native streaming unavailable (%s); falling back", reason)
        self.sink = self._fallback()

    async def run(
        self, events: AsyncIterator[ReplyEvent], turn_id: int | None, question: str = ""
    ) -> tuple[Reply, Payload]:
        """Show the answer as it arrives and finish it; returns the Reply and final payload.

        ``turn_id`` puts the feedback buttons under the answer, except under the reply to
        small talk (``question`` "thanks!", "hello": ``is_small_talk_reply``): there is
        nothing to rate under "You're welcome!"."""
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
        if is_small_talk_reply(question, reply.answer):
            turn_id = None
        # The deltas are the resolver's text; a post-processing hook (grounding's "drop")
        # may still change the final answer's text, and only here are both known. A blank
        # answer counts as revised too: the stream showed nothing, while the payload says
        # that the answer was empty. So does one that marks a citation weak ([n?]): grounding
        # judges only the whole answer, so the text streamed before its verdict reads [n].
        revised = (
            text != reply.answer.text
            or not text.strip()
            or marks_weak(reply.answer, self._weak_below)
        )
        try:
            await self.sink.finish(payload, turn_id, revised=revised)
        except StreamingUnavailableError as exc:
            self._switch(exc)
            await self.sink.finish(payload, turn_id, revised=revised)
        return reply, payload
