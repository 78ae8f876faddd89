"""Never lose a Slack reply: what Slack cannot take now is kept in the store's outbox.

:meth:`SlackOutbox.deliver` posts an answer's messages in order and then uploads its files. If
Slack still refuses after the client's own retries (429 waits, 5xx backoff), the messages not
yet posted and the files are persisted in the SQLite outbox, and :meth:`flush` (run every
``outbox_poll_seconds`` by the connector, also after a restart) posts them later, in order.
Each message is posted once: after a partial flush the rest is re-queued as a new item and the
old one is marked sent, so a message Slack accepted is never sent again. Once an answer's
messages are all posted, its files are kept as an item of their own until they are uploaded
(:mod:`bot.connectors.slack_outbox_files`): recovering them never posts the messages again.

A timeout or a connection lost mid-request (DeliveryUncertainError) may mean Slack posted the
message and only its answer was lost. So every message carries a delivery key in its message
metadata (invisible in Slack), and before resending such an item the outbox reads the thread
(``conversations.replies``) and skips the messages whose key is already there. A key, not the
text, because the continuation messages of every long answer share their ``(continued)`` text.
Each item records when its first message was first attempted (``since``), and the thread is
read from then on (less a margin for clock skew), so a thread of any length is checked where
the item's posts can be.

:meth:`complete` is the one way a sink finishes a message it showed early (streamed or edited):
replace it with the final first message, or, when Slack refuses the edit, delete it and deliver
the whole answer anew.

A refusal no retry can change (:class:`UndeliverableError`: an archived channel, a channel the
bot left, a revoked token, a message Slack will never take) is never queued: it is raised to
the caller, and a queued item that meets one is dropped at once.

The asker is never left with a stale "thinking…" in an assistant thread: when the answer is
queued the thread's status says it will follow (``slack.queued_status``); when the outbox
delivers it (or finds that Slack had taken it) the status is removed; when the outbox drops it
for good (a refusal, or out of tries) the asker gets the apology, or, if even
that cannot be posted, a status saying the answer failed. An item that fails in a way no
resend can change (malformed, or a bug) is dropped at once, so that it does not hold back the
answers queued after it.

How long a queued answer is tried is :mod:`bot.connectors.slack_outbox_tries`: ``MAX_ATTEMPTS``
failed tries, while tries Slack only rate-limited (429) do not count toward them; they wait as
long as Slack asked, for up to ``MAX_RATE_LIMITED_SECONDS`` from the answer's first try.

A queued item carries the id of its answer's turn: when the outbox drops it (a refusal, or
running out of tries, also of the rest of an answer Slack took in part) the turn is
recorded as ``failed``, so ``citecast report`` does not count the question as answered. Items
queued before the id was kept have none, and their turn is left as it is.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from bot.config import SlackSettings
from bot.connectors.outbox_turns import TURN_KEY, fail_queued_turn, queued_turn
from bot.connectors.slack_client import QUESTION_GONE, UndeliverableError
from bot.connectors.slack_delivery import DELIVERY_EVENT_TYPE, NO_STATUS, Message, SlackPoster
from bot.connectors.slack_outbox_files import FileUploads, is_files_only

# MAX_ATTEMPTS is re-exported: callers have always found it here
from bot.connectors.slack_outbox_tries import MAX_ATTEMPTS as MAX_ATTEMPTS
from bot.connectors.slack_outbox_tries import judge, report
from bot.connectors.slack_thread import SlackThread
from bot.errors import ChannelError, CitecastError, DeliveryUncertainError, RateLimitedError
from bot.store import OutboxItem, Store

log = logging.getLogger(__name__)

CHANNEL = "slack"


def delivery_key(message: Message) -> str | None:
    """The delivery key a message carries in its metadata, if any."""
    metadata = message.get("metadata") or {}
    if metadata.get("event_type") != DELIVERY_EVENT_TYPE:
        return None
    key = (metadata.get("event_payload") or {}).get("key")
    return str(key) if key else None


def with_delivery_keys(messages: Sequence[Message]) -> list[Message]:
    """The messages, each with a fresh delivery key (kept when it already has one)."""
    batch = uuid.uuid4().hex
    out: list[Message] = []
    for index, message in enumerate(messages):
        if delivery_key(message) is None:
            key = f"{batch}-{index}"
            message = {
                **message,
                "metadata": {"event_type": DELIVERY_EVENT_TYPE, "event_payload": {"key": key}},
            }
        out.append(message)
    return out


def queued_since(payload: dict[str, Any]) -> float | None:
    """When an item's first message was first tried; None for items queued before it was kept
    (their thread is read from the start)."""
    since = payload.get("since")
    return float(since) if isinstance(since, int | float) else None


class SlackOutbox:
    """Posts answers now, or later from the store."""

    def __init__(
        self,
        store: Store,
        poster: SlackPoster,
        settings: SlackSettings,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._poster = poster
        self._settings = settings
        # the items being sent now: one pass, or the answer uploading its files, at a time
        self._busy: set[str] = set()
        # an answer's files, once its messages are all posted (see slack_outbox_files)
        self.files = FileUploads(store, poster, settings, self._busy)
        # how long an answer has waited is measured with it (a test moves it on)
        self._clock = clock

    async def _queue(
        self,
        thread: SlackThread,
        messages: Sequence[Message],
        files: Sequence[dict[str, Any]],
        *,
        since: float,
        error: ChannelError,
        turn_id: int | None,
    ) -> str:
        """Persist the messages still to post; ``error`` is why they could not be posted now
        (a 429's wait is honoured by the first resend too, not only by later ones; after a lost
        response the first message may already be in the thread). The asker's status says the
        answer will follow, set first so that a flush delivering it at once comes after it."""
        await self._poster.set_status(thread, self._settings.queued_status)
        verify = isinstance(error, DeliveryUncertainError)
        payload: dict[str, Any] = {
            **thread.to_json(),
            "messages": list(messages),
            "files": list(files),
            # the first message may already be in the thread: check before resending
            "verify": verify,
            # when the first message was first tried: Slack may have taken it from then on
            "since": since,
        }
        if turn_id is not None:
            # marked failed if the item is dropped (see fail_queued_turn)
            payload[TURN_KEY] = turn_id
        item_id = self._store.enqueue(CHANNEL, payload)
        if isinstance(error, RateLimitedError):  # not a failed try: only a wait
            self._store.postpone(item_id, str(error), retry_in=error.retry_after)
        return item_id

    async def deliver(
        self,
        thread: SlackThread,
        messages: Sequence[Message],
        files: Sequence[dict[str, Any]],
        *,
        turn_id: int | None = None,
    ) -> bool:
        """Post ``messages`` then upload ``files``; True when all went now, False if queued.

        Raises UndeliverableError, queuing nothing, when Slack refuses for good (an archived
        channel, a message it will never take): retries would only repeat the refusal.
        ``turn_id``: the answer's turn, recorded as failed if the outbox drops what it queued.
        """
        messages = with_delivery_keys(messages)
        for index, message in enumerate(messages):
            attempted_at = time.time()
            try:
                await self._poster.post(thread, message)
            except UndeliverableError:
                raise
            except ChannelError as exc:
                log.warning("Slack refused an answer in %s (%s); queued", thread.channel, exc)
                await self._queue(
                    thread, messages[index:], files, since=attempted_at, error=exc, turn_id=turn_id
                )
                return False
        await self.files.upload(thread, files, turn_id=turn_id)
        return True

    async def deliver_after_wait(
        self,
        thread: SlackThread,
        messages: Sequence[Message],
        files: Sequence[dict[str, Any]],
        *,
        waited: RateLimitedError,
        asked_at: float,
        turn_id: int | None = None,
    ) -> None:
        """Queue the answer without trying it now: at ``asked_at`` (wall clock) Slack answered
        a call for it with a 429 asking for a wait (``waited``) longer than the client waits.
        Another call before that wait is over would be refused too, so the outbox's first try
        comes no sooner than Slack asked. ``turn_id`` as for :meth:`deliver`."""
        left = max(0.0, asked_at + waited.retry_after - time.time())
        log.warning(
            "Slack asked to wait %.0f s before posting in %s; the answer is queued",
            left,
            thread.channel,
        )
        error = RateLimitedError(str(waited), left)
        keyed = with_delivery_keys(messages)
        await self._queue(thread, keyed, files, since=time.time(), error=error, turn_id=turn_id)

    async def complete(
        self,
        thread: SlackThread,
        ts: str,
        messages: Sequence[Message],
        files: Sequence[dict[str, Any]],
        *,
        turn_id: int | None = None,
    ) -> bool:
        """Make the message ``ts`` the answer's first message, then deliver the rest.

        When Slack refuses the edit, the half-shown message is deleted (rather than left above
        the full answer) and the whole answer is delivered anew, queued if need be.
        ``turn_id`` as for :meth:`deliver`.
        """
        try:
            await self._poster.update(thread, ts, messages[0])
        except ChannelError as exc:
            if isinstance(exc, UndeliverableError) and exc.conversation_closed:
                raise  # nothing can be deleted or posted there either
            log.warning("could not complete message %s (%s); posting it anew", ts, exc)
            if not (isinstance(exc, UndeliverableError) and exc.message_gone):
                await self._poster.delete(thread, ts)
            return await self.deliver(thread, messages, files, turn_id=turn_id)
        return await self.deliver(thread, messages[1:], files, turn_id=turn_id)

    async def flush(self) -> int:
        """One pass over the queued answers that are due; returns how many were completed.

        An item that fails unexpectedly (malformed, or a bug) is dropped, not retried.
        """
        done = 0
        for item in self._store.due(CHANNEL):
            if item.id in self._busy or not self._still_pending(item.id):
                continue  # being sent now, or sent meanwhile
            self._busy.add(item.id)
            try:
                if await self._resend(item):
                    done += 1
            except CitecastError:
                raise  # the store failing: the next pass tries again
            except Exception:
                # It would fail the same way every pass, and the items are sent oldest first:
                # retried, it would hold back every answer queued after it, for good.
                log.exception("a queued Slack answer (%s) failed unexpectedly; dropped", item.id)
                self._store.mark_failed_attempt(
                    item.id, "failed unexpectedly; not retried", retry_in=0.0, max_attempts=1
                )
                fail_queued_turn(self._store, item.payload, CHANNEL)
            finally:
                self._busy.discard(item.id)
        return done

    def _still_pending(self, item_id: str) -> bool:
        """Whether the item is still to send (a pass running beside this one may have sent it
        since this pass listed it)."""
        item = self._store.outbox_item(item_id)
        return item is not None and item.status == "pending"

    async def _give_up(
        self, item: OutboxItem, thread: SlackThread, error: UndeliverableError
    ) -> None:
        """Slack refuses the queued answer for good: drop it now (kept as ``dead``) rather
        than repeat the refusal for hours, and tell the asker where a message can arrive."""
        # A deleted question is the asker's doing, not a fault: logged as the connector
        # logs it when the answer was not queued.
        level = logging.WARNING if error.code == QUESTION_GONE else logging.ERROR
        log.log(level, "dropped a queued Slack answer for %s: %s", thread.channel, error)
        self._store.mark_failed_attempt(item.id, str(error), retry_in=0.0, max_attempts=1)
        fail_queued_turn(self._store, item.payload, CHANNEL)
        if not error.conversation_closed:
            await self._poster.apologize(thread)

    async def _retry_later(
        self, item: OutboxItem, thread: SlackThread, error: ChannelError
    ) -> None:
        verdict = judge(
            item,
            error,
            since=queued_since(item.payload),
            now=self._clock(),
            poll_seconds=self._settings.outbox_poll_seconds,
        )
        report(thread.channel, error, verdict)
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
        await self._poster.apologize(thread)

    async def _sent(self, item: OutboxItem, thread: SlackThread) -> None:
        self._store.mark_sent(item.id)
        # Slack removes the status when a reply is posted, but a reply Slack took before the
        # "will appear" note was set (a lost answer) leaves that note up: remove it.
        await self._poster.set_status(thread, NO_STATUS)

    async def _resend(self, item: OutboxItem) -> bool:
        payload = item.payload
        thread = SlackThread.from_json(payload)
        if is_files_only(payload):
            return await self.files.resend(item, thread)
        messages: list[Message] = list(payload.get("messages") or [])
        files = list(payload.get("files") or [])
        # After a failed resend the store keeps no flag of why it failed, so check again.
        if payload.get("verify") or item.attempts:
            try:
                posted = await self._poster.delivery_keys(thread, since=queued_since(payload))
            except ChannelError as exc:
                # Unknown whether the message arrived: never post it blindly.
                if isinstance(exc, UndeliverableError) and exc.conversation_closed:
                    await self._give_up(item, thread, exc)
                else:
                    await self._retry_later(item, thread, exc)
                return False
            for message in messages:
                # Slack took it, though its answer was lost: a reply to the question all the same
                if (key := delivery_key(message)) is not None and key in posted:
                    self._poster.record(thread, posted[key])
            messages = [m for m in messages if delivery_key(m) not in posted]
        for index, message in enumerate(messages):
            attempted_at = time.time()
            try:
                await self._poster.post(thread, message)
            except ChannelError as exc:
                if isinstance(exc, UndeliverableError):
                    await self._give_up(item, thread, exc)
                elif index:
                    # Part went through: keep only the rest, so nothing is posted twice. The
                    # rest was never tried before this message, so the new item starts here.
                    await self._queue(
                        thread,
                        messages[index:],
                        files,
                        since=attempted_at,
                        error=exc,
                        turn_id=queued_turn(payload),
                    )
                    self._store.mark_sent(item.id)
                else:
                    await self._retry_later(item, thread, exc)
                return False
        # kept on their own first: a stop mid-upload must not bring these messages back
        await self.files.upload(thread, files, turn_id=queued_turn(payload), replacing=item.id)
        await self._sent(item, thread)
        return True

    async def run(self) -> None:
        """Flush every ``outbox_poll_seconds`` until cancelled."""
        while True:
            try:
                await self.flush()
            except Exception:
                log.exception("flushing the Slack outbox failed")
            await asyncio.sleep(self._settings.outbox_poll_seconds)
