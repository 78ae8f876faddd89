"""One try at a queued Slack answer: post what the thread lacks, re-queue a rest, or drop it.

The outbox (:class:`bot.connectors.slack_outbox.SlackOutbox`) hands each due item to
:meth:`Resender.resend` while it holds the item's thread. An item whose first message may be in
the thread already (a lost response, or an earlier try that failed) has the thread read first
(from the item's ``since``) and the messages found there are not posted again. Then the rest is
posted in order: when Slack stops taking them partway, what is left is queued as a new item
(carrying the parts posted so far) and the old one marked sent; when Slack refuses for good,
or the item runs out of tries (``slack_outbox_tries``), it is dropped, its turn marked failed
and the parts of its answer already in the thread withdrawn (``slack_outbox_drops``).
Before any of that, the answer is judged again for those reading the thread now
(``slack_outbox_audience``): one they may no longer read is dropped the same way, unposted.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from bot.config import SlackSettings
from bot.connectors.outbox_turns import fail_queued_turn, queued_turn
from bot.connectors.slack_client import QUESTION_GONE, UndeliverableError
from bot.connectors.slack_delivery import NO_STATUS, Message, SlackPoster
from bot.connectors.slack_delivery_keys import delivery_key
from bot.connectors.slack_outbox_audience import (
    QueuedAudience,
    ReadersChangedError,
    ReadersUnknownError,
)
from bot.connectors.slack_outbox_drops import posted_parts, withdraw_dropped
from bot.connectors.slack_outbox_files import FileUploads, is_files_only
from bot.connectors.slack_outbox_tries import MAX_ATTEMPTS, judge, report
from bot.connectors.slack_thread import SlackThread
from bot.errors import ChannelError, DeliveryUncertainError
from bot.store import OutboxItem, Store

log = logging.getLogger(__name__)

CHANNEL = "slack"


class Requeue(Protocol):
    """How the outbox queues what is left of an answer (``SlackOutbox._queue``)."""

    async def __call__(
        self,
        thread: SlackThread,
        messages: Sequence[Message],
        files: Sequence[dict[str, Any]],
        *,
        since: float,
        error: ChannelError,
        turn_id: int | None,
        parts: Sequence[str] = (),
    ) -> str: ...


def queued_since(payload: Mapping[str, Any]) -> float | None:
    """When an item's first message was first tried; None for items queued before it was kept
    (their thread is read from the start)."""
    since = payload.get("since")
    return float(since) if isinstance(since, int | float) else None


class _Sending:
    """One try at a queued answer: its parts in the thread (ts), its messages still to post."""

    def __init__(self, item: OutboxItem, thread: SlackThread, messages: Sequence[Message]) -> None:
        self.item = item
        self.thread = thread
        self.parts = posted_parts(item.payload)
        self.rest = list(messages)
        # whether Slack may have taken one of ``rest`` unseen (a lost response, now or before)
        self.unsure = bool(item.payload.get("verify") or item.attempts)

    def posted(self, message: Message, ts: str) -> None:
        """``message`` is in the thread now, as ``ts``."""
        self.rest.remove(message)
        if ts:
            self.parts.append(ts)

    async def withdraw(self, poster: SlackPoster, error: ChannelError) -> None:
        """The answer is dropped after ``error``: withdraw its parts (see slack_outbox_drops),
        looking for those of ``rest`` Slack may have taken unseen."""
        unsure = self.rest if self.unsure or isinstance(error, DeliveryUncertainError) else []
        refusal = error if isinstance(error, UndeliverableError) else None
        since = queued_since(self.item.payload)
        await withdraw_dropped(poster, self.thread, self.parts, unsure, since=since, error=refusal)


class Resender:
    """Tries the queued answers the outbox hands it, one at a time."""

    def __init__(
        self,
        store: Store,
        poster: SlackPoster,
        settings: SlackSettings,
        files: FileUploads,
        requeue: Requeue,
        clock: Callable[[], float],
        audience: QueuedAudience | None = None,
    ) -> None:
        self._store = store
        self._poster = poster
        self._settings = settings
        self._files = files
        self._requeue = requeue
        self._clock = clock
        # who reads the thread now, checked before anything is posted (None: not checked)
        self._audience = audience

    async def resend(self, item: OutboxItem) -> bool:
        """Try ``item`` once; True when its answer is all in the thread now."""
        payload = item.payload
        thread = SlackThread.from_json(payload)
        if is_files_only(payload):
            return await self._files.resend(item, thread)
        messages: list[Message] = list(payload.get("messages") or [])
        files = list(payload.get("files") or [])
        sending = _Sending(item, thread, messages)
        if self._audience is not None:
            try:
                await self._audience.check(thread, payload)
            except ReadersChangedError as exc:
                await self._not_for_readers(sending, exc)
                return False
            except ReadersUnknownError as exc:
                await self._retry_later(sending, exc)  # a failed try, as Slack failing to post
                return False
        # After a failed resend the store keeps no flag of why it failed, so check again.
        if payload.get("verify") or item.attempts:
            try:
                posted = await self._poster.delivery_keys(thread, since=queued_since(payload))
            except ChannelError as exc:
                # Unknown whether the message arrived: never post it blindly.
                if isinstance(exc, UndeliverableError) and exc.conversation_closed:
                    await self._give_up(sending, exc)
                else:
                    await self._retry_later(sending, exc)
                return False
            for message in messages:
                # Slack took it, though its answer was lost: a reply to the question all the same
                if (key := delivery_key(message)) is not None and key in posted:
                    self._poster.record(thread, posted[key])
                    sending.posted(message, posted[key])
            messages, sending.unsure = list(sending.rest), False
        for index, message in enumerate(messages):
            attempted_at = time.time()
            try:
                sending.posted(message, await self._poster.post(thread, message))
            except ChannelError as exc:
                if isinstance(exc, UndeliverableError):
                    await self._give_up(sending, exc)
                elif index:
                    # Part went through: keep only the rest, so nothing is posted twice. The
                    # rest was never tried before this message, so the new item starts here.
                    await self._requeue(
                        thread,
                        sending.rest,
                        files,
                        since=attempted_at,
                        error=exc,
                        turn_id=queued_turn(payload),
                        parts=sending.parts,
                    )
                    self._store.mark_sent(item.id)
                else:
                    await self._retry_later(sending, exc)
                return False
        # kept on their own first: a stop mid-upload must not bring these messages back
        await self._files.upload(thread, files, turn_id=queued_turn(payload), replacing=item.id)
        self._store.mark_sent(item.id)
        # Slack removes the status when a reply is posted, but a reply Slack took before the
        # "will appear" note was set (a lost answer) leaves that note up: remove it.
        await self._poster.set_status(thread, NO_STATUS)
        return True

    async def _give_up(self, sending: _Sending, error: UndeliverableError) -> None:
        """Slack refuses the queued answer for good: drop it now (kept as ``dead``) rather
        than repeat the refusal for hours, withdraw the parts of it already posted, and tell
        the asker where a message can arrive."""
        thread = sending.thread
        # A deleted question is the asker's doing, not a fault: logged as the connector
        # logs it when the answer was not queued.
        level = logging.WARNING if error.code == QUESTION_GONE else logging.ERROR
        log.log(level, "dropped a queued Slack answer for %s: %s", thread.channel, error)
        await self._drop(sending, error)

    async def _not_for_readers(self, sending: _Sending, error: ReadersChangedError) -> None:
        """Those reading the thread now may not read the queued answer: drop it unposted, as
        a refusal for good is dropped (the asker gets the apology, which cites nothing)."""
        log.error(
            "dropped a queued Slack answer for %s before posting it: %s",
            sending.thread.channel,
            error,
        )
        await self._drop(sending, error)

    async def _drop(self, sending: _Sending, error: ChannelError) -> None:
        """Drop the item for good (kept as ``dead``), fail its turn and withdraw its parts."""
        item = sending.item
        self._store.mark_failed_attempt(item.id, str(error), retry_in=0.0, max_attempts=1)
        fail_queued_turn(self._store, item.payload, CHANNEL)
        await sending.withdraw(self._poster, error)

    async def _retry_later(self, sending: _Sending, error: ChannelError) -> None:
        """A try that may succeed later: wait, or drop the answer when its tries are used up."""
        item = sending.item
        verdict = judge(
            item,
            error,
            since=queued_since(item.payload),
            now=self._clock(),
            poll_seconds=self._settings.outbox_poll_seconds,
        )
        report(sending.thread.channel, error, verdict)
        if verdict.give_up:
            self._store.mark_failed_attempt(item.id, str(error), retry_in=0.0, max_attempts=1)
        elif verdict.counted:
            self._store.mark_failed_attempt(
                item.id, str(error), retry_in=verdict.wait, max_attempts=MAX_ATTEMPTS
            )
        else:
            self._store.postpone(item.id, str(error), retry_in=verdict.wait)
        if not verdict.give_up:
            return
        fail_queued_turn(self._store, item.payload, CHANNEL)
        await sending.withdraw(self._poster, error)


__all__ = ["Requeue", "Resender", "queued_since"]
