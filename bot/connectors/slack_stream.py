"""Showing an answer while it is written: native Slack streaming, post-then-edit, or one message.

The answer arrives as TextDelta / CitationAdded events and one final Reply. A *sink* shows it:

- :class:`NativeSink` streams with ``chat.startStream``/``appendStream``/``stopStream`` (slack_sdk's
  ``chat_stream`` helper) and finishes with the source context blocks and feedback buttons. When
  the workspace refuses streaming before anything is visible (``feature_not_enabled``,
  ``unknown_method`` …), or the stream cannot be started for any other reason (a refusal, a lost
  connection, a timeout), it raises :class:`StreamingUnavailableError` and the driver falls back
  to editing. When Slack closes the stream mid-answer (``message_not_in_streaming_state``), a
  stream call fails mid-answer (a lost connection, a 5xx or 429 that outlasted the retries), or
  the answer outgrows one streamed message, the message is completed with ``chat.update`` and
  any further messages are posted: never left half-written. A streamed message deleted
  meanwhile (``message_not_found``) is not edited: the whole answer is posted anew at the end.
- :class:`EditSink` posts the first part, then re-renders the partial answer at most once per
  ``edit_interval_seconds`` into ``chat.update`` (4,000 characters), then posts the rest. An
  edit that fails on the way is skipped (the final one shows everything); when the first post
  fails, or the posted message is deleted meanwhile, nothing more is shown live and the whole
  answer is delivered through the outbox.
- :class:`PlainSink` posts the final messages only.

:class:`bot.connectors.slack_presenter.AnswerPresenter` feeds a sink and falls back. A sink is
given its answer's turn (``turn_id``) for the outbox: an answer queued and then dropped is a
failed turn (the ``turn_id`` of :meth:`AnswerSink.finish` is only there for feedback buttons). A
conversation closed to the bot (an archived channel, one it left) raises UndeliverableError
from any sink at once: no fallback or later post could arrive there.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from slack_sdk.web.async_chat_stream import AsyncChatStream
from slack_sdk.web.async_client import AsyncWebClient

from bot.config import SlackSettings
from bot.connectors.slack_client import (
    SLACK_CALL_ERRORS,
    Sleep,
    UndeliverableError,
    as_channel_error,
    error_code,
)
from bot.connectors.slack_delivery import (
    MAX_BLOCKS,
    SlackPoster,
    SlackThread,
    feedback_block,
    source_blocks,
    with_feedback,
)
from bot.connectors.slack_outbox import SlackOutbox, delivery_key, with_delivery_keys
from bot.connectors.slack_text import StreamMarkdown
from bot.errors import ChannelError, DeliveryUncertainError
from bot.models import Answer
from renderers.limits import SLACK_MAX_BLOCKS_TEXT
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

Payload = dict[str, Any]
RenderFn = Callable[[Answer], Payload]


class StreamingUnavailableError(ChannelError):
    """Native streaming is not available here; nothing has been shown yet."""


class AnswerSink(Protocol):
    """Shows one answer in one thread."""

    async def text(self, delta: str, partial: Answer) -> None:
        """New answer text (``partial`` is everything so far)."""
        ...

    async def finish(self, payload: Payload, turn_id: int | None, *, revised: bool) -> None:
        """The final rendered payload.

        ``revised``: the final answer's text is not the text fed to :meth:`text` (a
        post-processing hook such as grounding changed or renumbered it), so nothing shown
        so far may be kept as it is.
        """
        ...

    async def fail(self) -> None:
        """The answer failed: tell the user, completing anything half-written."""
        ...


class PlainSink:
    """No streaming: one go at the end."""

    def __init__(
        self,
        poster: SlackPoster,
        outbox: SlackOutbox,
        thread: SlackThread,
        *,
        turn_id: int | None = None,
    ) -> None:
        self._poster = poster
        self._outbox = outbox
        self._thread = thread
        self._turn = turn_id

    async def text(self, delta: str, partial: Answer) -> None:
        """Nothing is shown until the answer is complete."""

    async def finish(self, payload: Payload, turn_id: int | None, *, revised: bool) -> None:
        """Post every message of the payload in order (queued if Slack refuses), then files."""
        messages = with_feedback(payload["messages"], turn_id)
        files = payload.get("files") or []
        await self._outbox.deliver(self._thread, messages, files, turn_id=self._turn)

    async def fail(self) -> None:
        """Post the apology."""
        await self._poster.apologize(self._thread)


class EditSink:
    """Post, then edit at most once per interval, then complete."""

    def __init__(
        self,
        poster: SlackPoster,
        outbox: SlackOutbox,
        thread: SlackThread,
        render: RenderFn,
        interval: float,
        sleep: Sleep,
        clock: Callable[[], float] = time.monotonic,
        *,
        turn_id: int | None = None,
    ) -> None:
        self._poster = poster
        self._outbox = outbox
        self._thread = thread
        self._render = render
        self._interval = interval
        self._sleep = sleep
        self._clock = clock
        self._turn = turn_id
        self._ts: str | None = None
        self._live = True
        self._last_edit = float("-inf")
        self._lost: str | None = None  # the delivery key of a first post whose fate is unknown
        self._lost_since = 0.0  # when that post was tried (wall clock, as Slack's ts)
        self.edits = 0

    async def text(self, delta: str, partial: Answer) -> None:
        """Show the partial answer's first message, throttled; failures only cost liveness."""
        if not partial.text.strip() or not self._live:
            return
        now = self._clock()
        if self._ts is not None and now - self._last_edit < self._interval:
            return
        first = self._render(partial)["messages"][0]
        if self._ts is None:
            (first,) = with_delivery_keys([first])
            attempted_at = time.time()
            try:
                self._ts = await self._poster.post(self._thread, first)
            except ChannelError as exc:
                if isinstance(exc, UndeliverableError) and exc.conversation_closed:
                    raise  # the final post would be refused the same way
                # finish() delivers the whole answer. No second try now: a post lost on the way
                # may be in the thread (finish() looks for its key), and another would repeat it.
                log.warning(
                    "showing the answer in %s failed (%s); posting it at the end",
                    self._thread.channel,
                    exc,
                )
                if isinstance(exc, DeliveryUncertainError):
                    self._lost, self._lost_since = delivery_key(first), attempted_at
                self._live = False
                return
        else:
            try:
                await self._poster.update(self._thread, self._ts, first)
            except ChannelError as exc:
                if isinstance(exc, UndeliverableError) and exc.message_gone:
                    # Deleted meanwhile: every further edit would be refused the same way.
                    log.warning(
                        "the answer being shown in %s was deleted; posting it anew at the end",
                        self._thread.channel,
                    )
                    self._ts, self._live = None, False
                    return
                # Only a glimpse is lost: the final edit replaces the whole message anyway.
                log.info("an edit of %s failed (%s); skipped", self._ts, exc)
            else:
                self.edits += 1
        self._last_edit = self._clock()

    async def finish(self, payload: Payload, turn_id: int | None, *, revised: bool) -> None:
        """Final edit of the first message (respecting the interval), then the rest.

        The final edit replaces the whole message, so a ``revised`` answer needs nothing more.
        """
        messages = with_feedback(payload["messages"], turn_id)
        files = payload.get("files") or []
        if self._ts is None and self._lost is not None:
            self._ts = await self._find_lost_post(self._lost)
        if self._ts is None:
            await self._outbox.deliver(self._thread, messages, files, turn_id=self._turn)
            return
        wait = self._interval - (self._clock() - self._last_edit)
        if wait > 0:
            await self._sleep(wait)
        self.edits += 1
        await self._outbox.complete(self._thread, self._ts, messages, files, turn_id=self._turn)

    async def _find_lost_post(self, key: str) -> str | None:
        """The ts of the first post whose answer was lost, if Slack took it after all (it is
        then completed, not left as a stray half answer above the full one)."""
        try:
            keys = await self._poster.delivery_keys(self._thread, since=self._lost_since)
            return keys.get(key)
        except ChannelError as exc:
            log.warning("cannot read %s to find a lost post (%s)", self._thread.channel, exc)
            return None

    async def fail(self) -> None:
        """Replace the partial answer with the apology (or post it)."""
        await self._poster.apologize(self._thread, self._ts)


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
    ) -> None:
        self._client = client
        self._poster = poster
        self._outbox = outbox
        self._thread = thread
        self._settings = settings
        self._turn = turn_id
        self._markdown = StreamMarkdown()
        self._stream: AsyncChatStream | None = None
        self._shown = 0
        self._open = True
        self.truncated = False
        self.closed_by_slack = False
        # a call failed mid-stream: the stream may lack a piece, so it is completed
        self.interrupted = False
        # the streamed message was deleted meanwhile: the answer is posted anew
        self.gone = False

    async def _streamer(self) -> AsyncChatStream:
        if self._stream is None:
            self._stream = await self._client.chat_stream(
                channel=self._thread.channel,
                thread_ts=self._thread.thread_ts,
                recipient_team_id=self._thread.team_id,
                recipient_user_id=self._thread.user,
                buffer_size=self._settings.stream_buffer_chars,
            )
        return self._stream

    @property
    def ts(self) -> str | None:
        """The streamed message, once Slack created it."""
        return self._stream.ts if self._stream is not None else None

    def _handle(self, exc: Exception, what: str) -> None:
        """A failed stream call (one of SLACK_CALL_ERRORS): fall back, complete, or raise."""
        code = error_code(exc)
        error = as_channel_error(exc, what)
        closed = isinstance(error, UndeliverableError) and error.conversation_closed
        if self.ts is None and closed and code not in UNSUPPORTED_STREAMING:
            raise error from None  # a plain post would be refused the same way
        if self.ts is None:
            # Nothing is visible yet, so a plain post can still show the whole answer. (A
            # chat.startStream lost on the way may have started a stream we cannot see.)
            if code not in UNSUPPORTED_STREAMING:
                log.warning("Slack stream could not start (%s); posting instead", code)
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
            self._open = False
            return
        if closed:
            raise error from None  # nothing more can be posted there, not even an apology
        # Anything else (a lost connection, a timeout, the helper's own refusal, a 5xx or a 429
        # that outlasted the retries, a piece Slack refused) costs only the rest of the stream,
        # which may lack a piece: the answer is completed with a normal message at the end.
        log.warning("the stream in %s broke off (%s); completing it", self._thread.channel, code)
        self.interrupted = True

    async def text(self, delta: str, partial: Answer) -> None:
        """Append the new text to the stream (until Slack closes it or it gets too long)."""
        markdown = self._markdown.feed(delta)
        if not markdown or not self._open or self.truncated or self.interrupted:
            return
        if self._shown + len(markdown) > self._settings.native_stream_max_chars:
            self.truncated = True
            return
        streamer = await self._streamer()
        try:
            await streamer.append(markdown_text=markdown)
        except SLACK_CALL_ERRORS as exc:
            self._handle(exc, "chat.appendStream")
            return
        self._shown += len(markdown)

    async def finish(self, payload: Payload, turn_id: int | None, *, revised: bool) -> None:
        """Stop with the sources and feedback, or complete the message normally.

        A ``revised`` answer is always completed: the streamed text cannot be taken back, and
        its citation numbers would not match the final source list.
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
            len(tail) <= MAX_BLOCKS
            and sum(block_text_length(block) for block in tail) <= SLACK_MAX_BLOCKS_TEXT
        )
        intact = not (self.truncated or self.interrupted or revised)
        if self._open and intact and fits:
            streamer = await self._streamer()
            try:
                await streamer.stop(markdown_text=rest or None, blocks=tail or None)
            except SLACK_CALL_ERRORS as exc:
                self._handle(exc, "chat.stopStream")
            else:
                await self._outbox.deliver(self._thread, [], files, turn_id=self._turn)
                return
        await self._complete(with_feedback(messages, turn_id), files)

    async def _complete(self, messages: list[dict[str, Any]], files: list[dict[str, Any]]) -> None:
        ts = self.ts
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

    async def fail(self) -> None:
        """End the stream if open and replace it with the apology (or post it)."""
        if self._open and self._stream is not None and self.ts is not None:
            try:
                await self._stream.stop()
            except SLACK_CALL_ERRORS as exc:
                log.info("stopping the failed stream: %s", error_code(exc))
        await self._poster.apologize(self._thread, None if self.gone else self.ts)
