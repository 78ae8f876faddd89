"""Showing an answer in its thread: the sink contract, one message at the end, or post-then-edit.

The answer arrives as TextDelta / CitationAdded events and one final Reply. A *sink* shows it:

- :class:`PlainSink` posts the final messages only.
- :class:`EditSink` posts the first part, then re-renders the partial answer at most once per
  ``edit_interval_seconds`` into ``chat.update`` (4,000 characters), then posts the rest. An
  edit that fails on the way is skipped (the final one shows everything); when the first post
  fails, or the posted message is deleted meanwhile, nothing more is shown live and the whole
  answer is delivered through the outbox (after a first post refused with a long 429, no sooner
  than Slack asked: ``SlackOutbox.deliver_after_wait``).
- :class:`bot.connectors.slack_stream.NativeSink` streams with Slack's native streaming; when
  the workspace cannot stream it raises :class:`StreamingUnavailableError` before anything is
  visible, and the presenter falls back to an :class:`EditSink`.

:class:`bot.connectors.slack_presenter.AnswerPresenter` feeds a sink and falls back
(:func:`bot.connectors.slack_presenter.choose_sinks` picks them from ``slack.streaming``). A
sink is given its answer's turn (``turn_id``) for the outbox: an answer queued and then dropped
is a failed turn (the ``turn_id`` of :meth:`AnswerSink.finish` is only there for feedback
buttons). A conversation closed to the bot (an archived channel, one it left) raises
UndeliverableError from any sink at once: no fallback or later post could arrive there.

A sink keeps its answer's parts (:class:`bot.connectors.slack_answer_parts.AnswerParts`): when
the answer fails after some of its messages were posted (Slack refusing a later one for good),
the first becomes the apology and the rest are deleted, so no part citing ``[n]`` stays without
the source list that was to follow it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from bot.connectors.slack_answer_parts import AnswerParts
from bot.connectors.slack_client import Sleep, UndeliverableError
from bot.connectors.slack_delivery import SlackPoster
from bot.connectors.slack_feedback_blocks import with_feedback
from bot.connectors.slack_outbox import SlackOutbox, delivery_key, with_delivery_keys
from bot.connectors.slack_thread import SlackThread
from bot.errors import ChannelError, DeliveryUncertainError, RateLimitedError
from bot.models import Answer

log = logging.getLogger(__name__)

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
        post-processing hook such as grounding changed or renumbered it, or marked a citation
        weak, ``[n?]``, which only the final render shows), so nothing shown so far may be
        kept as it is.
        """
        ...

    async def fail(self, text: str | None = None) -> None:
        """The answer failed: tell the user, completing anything half-written (``text``: what
        to say instead of ``slack.apology``)."""
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
        self._parts = AnswerParts(poster, thread)

    async def text(self, delta: str, partial: Answer) -> None:
        """Nothing is shown until the answer is complete."""

    async def finish(self, payload: Payload, turn_id: int | None, *, revised: bool) -> None:
        """Post every message of the payload in order (queued if Slack refuses), then files."""
        messages = self._parts.keyed(with_feedback(payload["messages"], turn_id))
        files = payload.get("files") or []
        await self._parts.delivered(
            self._outbox.deliver(self._thread, messages, files, turn_id=self._turn)
        )

    async def fail(self, text: str | None = None) -> None:
        """Post the apology (or ``text``) in place of the parts already posted."""
        await self._parts.withdraw(text)


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
        self._parts = AnswerParts(poster, thread)
        self._ts: str | None = None
        self._live = True
        self._last_edit = float("-inf")
        self._lost: str | None = None  # the delivery key of a first post whose fate is unknown
        self._lost_since = 0.0  # when that post was tried (wall clock, as Slack's ts)
        # the first post got a 429 with a long wait: (the error, when it came); the answer is
        # queued and no call made for it before that wait is over
        self._waiting: tuple[RateLimitedError, float] | None = None
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
                self._parts.shown(self._ts)
            except ChannelError as exc:
                if isinstance(exc, UndeliverableError) and exc.conversation_closed:
                    raise  # the final post would be refused the same way
                # finish() delivers the whole answer. No second try now: a post lost on the way
                # may be in the thread (finish() looks for its key), and another would repeat it.
                log.info(
                    "showing the answer in %s failed (%s); posting it at the end",
                    self._thread.channel,
                    exc,
                )
                self._live = False
                if isinstance(exc, RateLimitedError):
                    self._waiting = (exc, attempted_at)
                if isinstance(exc, DeliveryUncertainError):
                    self._lost, self._lost_since = delivery_key(first), attempted_at
                    # a part of the answer, if Slack took it: withdrawn with the rest on failure
                    self._parts.keyed([first], since=attempted_at)
                    # looked for now, not only at the end: a post Slack took is then recorded
                    # for the question, so a kill before the end leaves no untracked half answer
                    # (a restart deletes the recorded replies). Not found: looked for again then.
                    if self._lost is not None:
                        self._ts = await self._find_lost_post(self._lost)
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
                    self._parts.forget(self._ts)
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
        messages = self._parts.keyed(with_feedback(payload["messages"], turn_id))
        files = payload.get("files") or []
        await self._parts.delivered(self._deliver(messages, files))

    async def _deliver(self, messages: list[dict[str, Any]], files: list[dict[str, Any]]) -> None:
        if self._ts is None and self._waiting is not None:
            waited, asked_at = self._waiting
            await self._outbox.deliver_after_wait(
                self._thread, messages, files, waited=waited, asked_at=asked_at, turn_id=self._turn
            )
            return
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
        then recorded as a reply to the question and completed, not left as a stray half answer
        above the full one)."""
        try:
            keys = await self._poster.delivery_keys(self._thread, since=self._lost_since)
        except ChannelError as exc:
            log.warning("cannot read %s to find a lost post (%s)", self._thread.channel, exc)
            return None
        ts = keys.get(key)
        if ts:
            self._poster.record(self._thread, ts)
            self._parts.shown(ts)
        return ts or None

    async def fail(self, text: str | None = None) -> None:
        """Replace the partial answer with the apology or ``text`` (or post it), deleting the
        rest of it."""
        await self._parts.withdraw(text)
