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

A queued answer is judged again just before it is posted, or its files uploaded, for those
reading its thread then and the knowledge index as it is then (``audience``, see
:mod:`bot.connectors.slack_outbox_audience`): a private channel made public or shared with
another organisation, or a file made private, while it waited, and it is dropped as a refusal
for good is, unposted.

A refusal no retry can change (:class:`UndeliverableError`: an archived channel, a channel the
bot left, a revoked token, a message Slack will never take) is never queued: it is raised to
the caller, and a queued item that meets one is dropped at once. Trying one queued item is
:mod:`bot.connectors.slack_outbox_resend`'s.

An item keeps the ts of its answer's messages already in the thread (the first part a sink
showed, those posted before the rest was queued). When the outbox drops the rest for good,
those parts, which cite ``[n]`` sources listed only at the answer's end, are withdrawn with it:
the first becomes the apology and the others are deleted (:mod:`bot.connectors.slack_outbox_drops`).

The outbox posts into a thread only while it holds the thread's place (``places``, shared with
the answers being posted, see ``answer_places``): a queued answer never lands between the parts
of another answer to the same thread. An item whose thread is taken waits for the next pass;
one that a few passes in a row found taken waits its turn there, so that a thread answers keep
handing on never starves it (:mod:`bot.connectors.slack_outbox_waits`).

The asker is never left with a stale "thinking…" in an assistant thread: when the answer is
queued the thread's status says it will follow (``slack.queued_status``); when the outbox
delivers it (or finds that Slack had taken it) the status is removed; when the outbox drops it
for good (a refusal, or out of tries) the asker gets the apology (in place of its first part
already posted), or, if even that cannot be posted, a status saying the answer failed. An item
that fails in a way no resend can change (malformed, or a bug) is dropped at once, so that it
does not hold back the answers queued after it.

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
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from bot.config import SlackSettings
from bot.connectors.answer_places import Claim, Places
from bot.connectors.outbox_turns import TURN_KEY, fail_queued_turn
from bot.connectors.slack_client import UndeliverableError
from bot.connectors.slack_delivery import Message, SlackPoster

# delivery_key and with_delivery_keys are re-exported: callers have always found them here
from bot.connectors.slack_delivery_keys import delivery_key as delivery_key
from bot.connectors.slack_delivery_keys import with_delivery_keys as with_delivery_keys
from bot.connectors.slack_outbox_audience import QueuedAudience
from bot.connectors.slack_outbox_drops import PARTS
from bot.connectors.slack_outbox_files import FileUploads
from bot.connectors.slack_outbox_resend import Resender
from bot.connectors.slack_outbox_resend import queued_since as queued_since

# MAX_ATTEMPTS is re-exported: callers have always found it here
from bot.connectors.slack_outbox_tries import MAX_ATTEMPTS as MAX_ATTEMPTS
from bot.connectors.slack_outbox_waits import ThreadWaits
from bot.connectors.slack_thread import SlackThread
from bot.errors import ChannelError, CitecastError, DeliveryUncertainError, RateLimitedError
from bot.store import OutboxItem, Store

log = logging.getLogger(__name__)

CHANNEL = "slack"
_EVERY_ITEM = 1_000_000  # as many outbox items as a read may list


def thread_place(thread: SlackThread) -> tuple[str, str]:
    """The place (see ``answer_places``) of the answers posted into ``thread``."""
    return (thread.channel, thread.thread_ts)


class SlackOutbox:
    """Posts answers now, or later from the store."""

    def __init__(
        self,
        store: Store,
        poster: SlackPoster,
        settings: SlackSettings,
        *,
        clock: Callable[[], float] = time.time,
        places: Places | None = None,
        audience: QueuedAudience | None = None,
    ) -> None:
        self._store = store
        self._poster = poster
        self._settings = settings
        # the items being sent now: one pass, or the answer uploading its files, at a time
        self._busy: set[str] = set()
        # an answer's files, once its messages are all posted (see slack_outbox_files)
        # ``audience``: who reads a thread now, checked before a queued answer goes there
        self.files = FileUploads(store, poster, settings, self._busy, audience)
        # how long an answer has waited is measured with it (a test moves it on)
        self._clock = clock
        # the threads answers are being posted to: shared with the answers (an empty Places
        # is falsy, hence no ``or``), so a resend never lands between another answer's parts
        self.places = Places() if places is None else places
        self._resender = Resender(store, poster, settings, self.files, self._queue, clock, audience)
        # the threads passes keep finding taken, and those the outbox waits its turn in
        self._waits = ThreadWaits(self._send_thread)

    async def _queue(
        self,
        thread: SlackThread,
        messages: Sequence[Message],
        files: Sequence[dict[str, Any]],
        *,
        since: float,
        error: ChannelError,
        turn_id: int | None,
        parts: Sequence[str] = (),
    ) -> str:
        """Persist the messages still to post; ``error`` is why they could not be posted now
        (a 429's wait is honoured by the first resend too, not only by later ones; after a lost
        response the first message may already be in the thread). The asker's status says the
        answer will follow, set first so that a flush delivering it at once comes after it.
        ``parts``: the ts of the answer's messages already in the thread (withdrawn with it if
        the rest is dropped: see slack_outbox_drops)."""
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
            PARTS: list(parts),
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
        return await self._deliver(thread, messages, files, turn_id=turn_id, shown=[])

    async def _deliver(
        self,
        thread: SlackThread,
        messages: Sequence[Message],
        files: Sequence[dict[str, Any]],
        *,
        turn_id: int | None,
        shown: list[str],
    ) -> bool:
        """:meth:`deliver`, after the answer's parts ``shown`` (ts) were shown already."""
        messages = with_delivery_keys(messages)
        parts = list(shown)
        for index, message in enumerate(messages):
            attempted_at = time.time()
            try:
                parts.append(await self._poster.post(thread, message))
            except UndeliverableError:
                raise
            except ChannelError as exc:
                log.warning("Slack refused an answer in %s (%s); queued", thread.channel, exc)
                rest = messages[index:]
                await self._queue(
                    thread, rest, files, since=attempted_at, error=exc, turn_id=turn_id, parts=parts
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
            gone = isinstance(exc, UndeliverableError) and exc.message_gone
            # a half-shown message Slack would not delete stays a part of the answer
            left = [] if gone or await self._poster.delete(thread, ts) else [ts]
            return await self._deliver(thread, messages, files, turn_id=turn_id, shown=left)
        return await self._deliver(thread, messages[1:], files, turn_id=turn_id, shown=[ts])

    async def flush(self) -> int:
        """One pass over the queued answers that are due; returns how many were completed.

        An item that fails unexpectedly (malformed, or a bug) is dropped, not retried. An item
        is posted only while its thread is the outbox's (``places``): one whose thread another
        answer is being posted to is left for the next pass (with the thread's later items),
        rather than landing between that answer's parts. Not waited for: that answer may take
        minutes, and the items of other threads would wait with it. A thread the passes keep
        finding taken is waited for by a task of its own (``slack_outbox_waits``), which posts
        its items after the answers ahead of it; the passes leave that thread to it.
        """
        done = 0
        # threads an answer holds or waits for, or the outbox waits its turn in: left this pass
        left: set[tuple[str, str]] = set()
        for item in self._store.due(CHANNEL):
            if item.id in self._busy or not self._still_pending(item.id):
                continue  # being sent now, or sent meanwhile
            claim = self._claim(item, left)
            if claim is None:
                continue
            try:
                if await self._try(item):
                    done += 1
            finally:
                claim.release()
        self._waits.pass_over(left)
        return done

    async def _send_thread(self, place: Hashable) -> None:
        """Post the due items of thread ``place``, oldest first (the outbox holds the thread).
        All due items are looked at, not only a pass's first: waits are few, and the thread's
        items may be further down the outbox by now."""
        for item in self._store.due(CHANNEL, limit=_EVERY_ITEM):
            if _place_of(item) != place:
                continue
            if item.id in self._busy or not self._still_pending(item.id):
                continue  # being sent now, or sent meanwhile
            await self._try(item)

    async def _try(self, item: OutboxItem) -> bool:
        """Try ``item`` once (its thread held); True when its answer is all in the thread."""
        self._busy.add(item.id)
        try:
            return await self._resender.resend(item)
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
            return False
        finally:
            self._busy.discard(item.id)

    def _claim(self, item: OutboxItem, left: set[tuple[str, str]]) -> Claim | None:
        """The item's thread, taken for the outbox; None (the thread added to ``left``) when
        another answer holds it or waits for it, or the outbox waits its turn there. A payload
        with no thread has a claim on nothing: resending it fails, and it is dropped."""
        place = _place_of(item)
        if place is None:
            return self.places.claim(("", item.id))
        if place in left:
            return None  # its later items must not overtake it either
        claim = self.places.claim(place)
        if self._waits.waiting(place) or not claim.try_take():
            left.add(place)
            self._waits.left(place, claim)  # counted: the passes that leave it are bounded
            log.debug("a queued Slack answer (%s) waits for its thread", item.id)
            return None
        return claim

    def _still_pending(self, item_id: str) -> bool:
        """Whether the item is still to send (a pass running beside this one may have sent it
        since this pass listed it)."""
        item = self._store.outbox_item(item_id)
        return item is not None and item.status == "pending"

    async def run(self) -> None:
        """Flush every ``outbox_poll_seconds`` until cancelled; cancelled, it stops waiting
        for the threads it waits its turn in (their items stay queued)."""
        try:
            while True:
                try:
                    await self.flush()
                except Exception:
                    log.exception("flushing the Slack outbox failed")
                await asyncio.sleep(self._settings.outbox_poll_seconds)
        finally:
            await self._waits.cancel()


def _place_of(item: OutboxItem) -> tuple[str, str] | None:
    """The place of the thread ``item`` is for; None when its payload names no thread."""
    try:
        return thread_place(SlackThread.from_json(item.payload))
    except KeyError:
        return None
