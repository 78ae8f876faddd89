"""Showing an answer while it is written with Slack's native streaming (:class:`NativeSink`).

:class:`NativeSink` streams with ``chat.startStream``/``appendStream``/``stopStream`` (slack_sdk's
``chat_stream`` helper) and finishes with the source context blocks and feedback buttons. When
the workspace refuses streaming before anything is visible (``feature_not_enabled``,
``unknown_method`` …), or the stream cannot be started for any other reason (a refusal, a lost
connection, a timeout), it raises :class:`StreamingUnavailableError` and the driver falls back
to editing (:class:`bot.connectors.slack_sinks.EditSink`). Not after a 429 asking for a longer
wait than ``retry_max_seconds``: a post then would be refused too, so nothing more is sent for
the answer, which the outbox posts once that wait is over (``SlackOutbox.deliver_after_wait``).
When Slack closes the stream mid-answer (``message_not_in_streaming_state``), a stream call
fails mid-answer (a lost connection, a 5xx or 429 that outlasted the retries), or the answer
outgrows one streamed message, the message is completed with ``chat.update`` and any further
messages are posted: never left half-written. A streamed message deleted meanwhile
(``message_not_found``) is not edited: the whole answer is posted anew at the end.

The sink contract (:class:`bot.connectors.slack_sinks.AnswerSink`), the other sinks and how a
sink is given its answer's turn are described in :mod:`bot.connectors.slack_sinks`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from slack_sdk.web.async_chat_stream import AsyncChatStream
from slack_sdk.web.async_client import AsyncWebClient

from bot.config import SlackSettings
from bot.connectors.slack_answer_parts import AnswerParts
from bot.connectors.slack_client import (
    SLACK_CALL_ERRORS,
    UndeliverableError,
    as_channel_error,
    error_code,
)
from bot.connectors.slack_delivery import SlackPoster
from bot.connectors.slack_feedback_blocks import feedback_block, source_blocks, with_feedback
from bot.connectors.slack_outbox import SlackOutbox
from bot.connectors.slack_sinks import Payload, StreamingUnavailableError
from bot.connectors.slack_stream_links import links_of
from bot.connectors.slack_stream_orphans import remove_lost_stream
from bot.connectors.slack_stream_start import StreamStartClient
from bot.connectors.slack_text import StreamMarkdown
from bot.connectors.slack_thread import SlackThread
from bot.errors import DeliveryUncertainError, RateLimitedError
from bot.models import Answer
from renderers.base import CitationForm
from renderers.limits import SLACK_MAX_BLOCKS, SLACK_MAX_BLOCKS_TEXT
from renderers.slack import block_text_length

log = logging.getLogger(__name__)

# The workspace or token cannot stream: fall back to editing.
UNSUPPORTED_STREAMING = frozenset(
    {
        "feature_not_enabled",
        "unknown_method",
        "method_deprecated",
        "not_allowed_token_type",
        "method_not_supported_for_channel_type",
        "missing_scope",
        "team_not_allowed",
        "not_implemented",
    }
)
# Slack ended the stream on its side.
STREAM_CLOSED = frozenset({"message_not_in_streaming_state"})


class NativeSink:
    """Slack's native streaming, completed with a normal message when Slack closes it."""

    def __init__(
        self,
        client: AsyncWebClient,
        poster: SlackPoster,
        outbox: SlackOutbox,
        thread: SlackThread,
        settings: SlackSettings,
        *,
        turn_id: int | None = None,
        forms: Callable[[Answer], Mapping[int, CitationForm]] | None = None,
        bot_id: str | None = None,
    ) -> None:
        self._client = client
        self._bot_id = bot_id  # which messages are the bot's own (a lost start's cleanup)
        self._poster = poster
        self._outbox = outbox
        self._thread = thread
        self._settings = settings
        self._turn = turn_id
        self._parts = AnswerParts(poster, thread)
        self._markdown = StreamMarkdown()
        # the citations' forms, as the final render decides them: where each marker links,
        # and where a link labelled like one may lead (slack_stream_links)
        self._forms = forms
        self._cited = 0
        self._stream: AsyncChatStream | None = None
        self._tried = time.time()  # when the call that may start the stream was made
        self._shown = 0
        self._open = True
        self.truncated = False
        self.closed_by_slack = False
        # a call failed mid-stream: the stream may lack a piece, so it is completed
        self.interrupted = False
        # the streamed message was deleted meanwhile: the answer is posted anew
        self.gone = False
        # Slack answered the stream's start with a long 429: (the error, when it came); no
        # more calls for this answer, which the outbox posts once the wait is over
        self.waiting: tuple[RateLimitedError, float] | None = None

    async def _streamer(self) -> AsyncChatStream:
        if self._stream is None:
            # the streamed message is recorded as a reply to its question the moment Slack
            # starts it, also when that is inside the stop (see slack_stream_start)
            client = StreamStartClient(self._client, self._started)
            self._stream = await client.chat_stream(
                channel=self._thread.channel,
                thread_ts=self._thread.thread_ts,
                recipient_team_id=self._thread.team_id,
                recipient_user_id=self._thread.user,
                buffer_size=self._settings.stream_buffer_chars,
            )
        return self._stream

    def _trying(self) -> None:
        """A stream call is about to be made: until the stream has a ts, it may start it."""
        if self.ts is None:
            self._tried = time.time()

    def _started(self, ts: str) -> None:
        self._poster.record(self._thread, ts)
        self._parts.shown(ts)

    @property
    def ts(self) -> str | None:
        """The streamed message, once Slack created it."""
        return self._stream.ts if self._stream is not None else None

    async def _handle(self, exc: Exception, what: str) -> None:
        """A failed stream call (one of SLACK_CALL_ERRORS): fall back, complete, or raise."""
        code = error_code(exc)
        if self.ts is None:
            # with no stream yet, slack_sdk's append or stop called chat.startStream: name that
            what = "chat.startStream"
        error = as_channel_error(exc, what)
        closed = isinstance(error, UndeliverableError) and error.conversation_closed
        if self.ts is None and closed and code not in UNSUPPORTED_STREAMING:
            raise error from None  # a plain post would be refused the same way
        if self.ts is None and isinstance(error, RateLimitedError):
            # a plain post now would be refused too (and Slack may throttle the app harder);
            # INFO: the outbox's warning says the answer is queued, and for how long
            log.info(
                "Slack asked the stream in %s to wait; queuing the answer", self._thread.channel
            )
            self.waiting = (error, time.time())
            self._open = False
            return
        if self.ts is None:
            # Nothing of ours is visible yet, so a plain post can still show the whole answer.
            # A chat.startStream lost on the way may have started a stream we cannot see: it
            # is found and removed first (slack_stream_orphans), not left beside the answer.
            if code not in UNSUPPORTED_STREAMING:  # INFO: a post Slack refuses too is a warning
                log.info("Slack stream could not start (%s); posting instead", code)
            if isinstance(error, DeliveryUncertainError):
                await remove_lost_stream(
                    self._client, self._poster, self._thread, self._tried, self._bot_id
                )
            raise StreamingUnavailableError(f"Slack {what}: {code}") from None
        if code in STREAM_CLOSED:
            log.info("Slack closed the stream in %s; completing it", self._thread.channel)
            self.closed_by_slack = True
            self._open = False
            return
        if isinstance(error, UndeliverableError) and error.message_gone:
            log.warning(
                "the streamed message in %s was deleted; posting the answer anew",
                self._thread.channel,
            )
            self.gone = True
            self._parts.forget(self.ts)
            self._open = False
            return
        if isinstance(error, UndeliverableError) and error.conversation_closed:
            # Nothing more can be posted there. What was streamed is withdrawn where Slack still
            # lets the bot (a workspace restriction), not left citing sources it never lists.
            await self._stop("stopping the refused stream")
            await self._parts.refused(error)
            raise error from None
        # Anything else (a lost connection, a timeout, the helper's own refusal, a 5xx or a 429
        # that outlasted the retries, a piece Slack refused) costs only the rest of the stream,
        # which may lack a piece: the answer is completed with a normal message at the end.
        log.warning("the stream in %s broke off (%s); completing it", self._thread.channel, code)
        self.interrupted = True

    async def text(self, delta: str, partial: Answer) -> None:
        """Append the new text to the stream (until Slack closes it or it gets too long)."""
        if self._forms is not None and len(partial.citations) != self._cited:
            self._cited = len(partial.citations)
            forms = self._forms(partial)
            self._markdown.forms = forms
            self._markdown.links = links_of(forms)
        markdown = self._markdown.feed(delta)
        if not markdown or not self._open or self.truncated or self.interrupted:
            return
        if self._shown + len(markdown) > self._settings.native_stream_max_chars:
            self.truncated = True
            return
        streamer = await self._streamer()
        self._trying()
        try:
            await streamer.append(markdown_text=markdown)
        except SLACK_CALL_ERRORS as exc:
            await self._handle(exc, "chat.appendStream")
            return
        self._shown += len(markdown)

    async def finish(self, payload: Payload, turn_id: int | None, *, revised: bool) -> None:
        """Stop with the sources and feedback, or complete the message normally.

        A ``revised`` answer is always completed (``chat.update`` after the stream stops):
        ``chat.stopStream`` only appends (its ``markdown_text`` and ``blocks`` go after the
        streamed text), so the streamed text, whose citation numbers or weak marks (``[n?]``)
        would not match the final source list, can only be replaced.
        """
        messages: list[dict[str, Any]] = payload["messages"]
        tail = source_blocks(messages)
        if turn_id is not None:
            tail.append(feedback_block(turn_id))
        rest = self._markdown.flush()
        files = payload.get("files") or []
        # The stream's end takes the sources only within a message's limits, its text budget
        # too (Slack refuses the whole stop with too much block text); else it is completed.
        fits = (
            len(tail) <= SLACK_MAX_BLOCKS
            and sum(block_text_length(block) for block in tail) <= SLACK_MAX_BLOCKS_TEXT
        )
        intact = not (self.truncated or self.interrupted or revised)
        if self._open and intact and fits:
            streamer = await self._streamer()
            self._trying()
            try:
                await streamer.stop(markdown_text=rest or None, blocks=tail or None)
            except SLACK_CALL_ERRORS as exc:
                await self._handle(exc, "chat.stopStream")
            else:
                await self._outbox.deliver(self._thread, [], files, turn_id=self._turn)
                return
        await self._complete(with_feedback(messages, turn_id), files)

    async def _complete(self, messages: list[dict[str, Any]], files: list[dict[str, Any]]) -> None:
        messages = self._parts.keyed(messages)
        await self._parts.delivered(self._deliver(messages, files))

    async def _deliver(self, messages: list[dict[str, Any]], files: list[dict[str, Any]]) -> None:
        ts = self.ts
        if ts is None and self.waiting is not None:
            error, asked_at = self.waiting
            await self._outbox.deliver_after_wait(
                self._thread, messages, files, waited=error, asked_at=asked_at, turn_id=self._turn
            )
            return
        if ts is None or self.gone:
            await self._outbox.deliver(self._thread, messages, files, turn_id=self._turn)
            return
        if self._open and self._stream is not None:
            try:
                await self._stream.stop()
            except SLACK_CALL_ERRORS as exc:
                log.info("stopping the stream before completing it: %s", error_code(exc))
            self._open = False
        await self._outbox.complete(self._thread, ts, messages, files, turn_id=self._turn)

    async def fail(self, text: str | None = None) -> None:
        """End the stream if open and replace it with the apology or ``text`` (or post it),
        deleting any further part of the answer."""
        await self._stop("stopping the failed stream")
        await self._parts.withdraw(text)

    async def _stop(self, what: str) -> None:
        """End the stream if it is open (a message still streaming cannot be edited or deleted
        cleanly); ``what`` names the attempt in the log if Slack refuses."""
        if self._open and self._stream is not None and self.ts is not None:
            try:
                await self._stream.stop()
            except SLACK_CALL_ERRORS as exc:
                log.info("%s: %s", what, error_code(exc))
            self._open = False
