"""The Discourse outbox: questions kept until answered, and the worker that retries what is due.

No question is lost once acknowledged (Discourse does not redeliver a webhook it got a 200
for): the question is stored (outbox channel ``discourse-question``) before the 200, and marked
done once its reply is in the outbox. One whose answer was cut short by a restart or a crash,
or failed for a reason that may pass (the model endpoint, the store or the forum unreachable),
is answered again by the outbox worker, with the same backoff, up to 12 attempts, under the
turn its first attempt stored (``discourse_question_turn``: one question, one turn in
``citecast report``); one that cannot be answered (a bug, an unrenderable answer) is given up
at once. One kept because the forum refuses the API key (revoked, ``discourse_key``) is
answered again no sooner than its reply would be sent again, every 5 minutes, up to 48
attempts. Before answering again the worker checks that the reply is not already in the outbox.

The same worker resends the replies waiting in the outbox (channel ``discourse``, see
``discourse_delivery``) when their retry time has come, keeping each answer's parts in order.
A part waiting for someone else to reply in its topic (the forum's max consecutive replies,
``discourse_consecutive``) is due as soon as the webhook reports another user's post there,
and the worker is woken for it rather than left to its next poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, fields
from typing import Any

from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_consecutive import ConsecutiveRepliesError, waiting
from bot.connectors.discourse_delivery import (
    CHANNEL,
    OUTBOX_RATE_LIMITED_ATTEMPTS,
    AudienceChangedError,
    QuestionGoneError,
    ReplyDelivery,
    ReplyRefusedError,
)
from bot.connectors.discourse_errors import rate_limit_wait
from bot.connectors.discourse_key import KEY_RETRY_SECONDS, KeyRefusedError
from bot.connectors.discourse_webhook import PostEvent, Trigger
from bot.errors import BackendError, ChannelError, CitecastError, StoreError
from bot.runtime import Services
from bot.store_rows import OutboxItem

log = logging.getLogger(__name__)

QUESTIONS = "discourse-question"
QUESTION_ATTEMPTS = 12
# questions the outbox worker answers again at the same time (after an outage: not all at once)
MAX_RETRIED_ANSWERS = 4

StartAnswer = Callable[[str, PostEvent, Trigger], None]


class DiscourseOutbox:
    """Keeps questions in the store until answered and runs the worker that retries them and
    resends the replies that failed.

    ``start_answer`` starts answering a stored question in a background task (the connector's);
    ``in_flight`` holds the outbox ids being worked on, which the worker leaves alone.
    """

    def __init__(
        self,
        services: Services,
        client: Callable[[], DiscourseClient],
        delivery: ReplyDelivery,
        in_flight: set[str],
        start_answer: StartAnswer,
    ) -> None:
        self.services = services
        self.settings = services.settings.discourse
        self._client = client
        self._delivery = delivery
        self._in_flight = in_flight
        self._start_answer = start_answer
        # set to run the next round now (a waiting reply became due), not after the poll;
        # made by the worker, in its own event loop
        self._wake: asyncio.Event | None = None

    def keep_question(self, event: PostEvent, trigger: Trigger) -> str:
        """Store the question until it is answered; returns its outbox id."""
        question_id = _question_id(event.post_id)
        self.services.store.enqueue(
            QUESTIONS, {"event": asdict(event), "trigger": trigger}, item_id=question_id
        )
        return question_id

    def question_failed(self, question_id: str | None, exc: Exception, transient: bool) -> None:
        """Record a failed answer: retried later when the cause may pass, else given up."""
        if question_id is None:
            return
        store = self.services.store
        try:
            item = store.outbox_item(question_id)
            attempts = (item.attempts if item else 0) + 1
            retry_in = self._client().retry.backoff(attempts)
            limit = QUESTION_ATTEMPTS if transient else 1
            if isinstance(exc, KeyRefusedError):
                # as its reply would: an admin restores a revoked key in minutes or hours
                retry_in = max(retry_in, KEY_RETRY_SECONDS)
                limit = OUTBOX_RATE_LIMITED_ATTEMPTS
            store.mark_failed_attempt(question_id, str(exc), retry_in, max_attempts=limit)
        except StoreError as store_exc:
            log.error("discourse %s: cannot record the failure: %s", question_id, store_exc)
            return
        if attempts >= limit:
            log.error("discourse %s: giving up after %d attempt(s): %s", question_id, attempts, exc)
        else:
            log.warning("discourse %s: will answer again in %.0fs", question_id, retry_in)

    async def run(self) -> None:
        """The outbox worker: every ``outbox_poll_seconds``, answer and resend what is due."""
        self._wake = wake = asyncio.Event()
        while True:
            wake.clear()
            try:
                await self.answer_due()
                await self.resend_due()
            except Exception:
                # One bad round (the store busy, a malformed item) must not end the worker.
                log.exception("discourse outbox round failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), self.settings.outbox_poll_seconds)

    def someone_posted(self, topic_id: int) -> int:
        """Another user posted in topic ``topic_id``: the reply parts there waiting for it (the
        forum's max consecutive replies) are due now, and the worker is woken to send them;
        returns how many were waiting."""
        store = self.services.store
        made = 0
        for item in store.pending(CHANNEL):
            if (
                item.payload.get("topic_id") == topic_id
                and waiting(item)
                and store.make_due(item.id)
            ):
                made += 1
        if made:
            log.info(
                "discourse topic %s: someone replied; sending the rest of the answer", topic_id
            )
            if self._wake is not None:
                self._wake.set()
        return made

    async def answer_due(self) -> None:
        """Answer again the questions whose answer was interrupted or failed, when due."""
        now = time.time()
        store = self.services.store
        running = sum(1 for key in self._in_flight if key.startswith(QUESTIONS))
        for item in store.pending(QUESTIONS):
            if running >= MAX_RETRIED_ANSWERS:
                return
            if item.id in self._in_flight or item.next_attempt_at > now:
                continue
            try:
                event, trigger = _stored_question(item.payload)
            except (TypeError, ValueError, KeyError) as exc:
                log.error("discourse %s: unreadable stored question: %s", item.id, exc)
                store.mark_failed_attempt(item.id, f"unreadable: {exc}", 0, max_attempts=1)
                continue
            log.info("discourse topic %s: answering post %s again", event.topic_id, event.post_id)
            self._start_answer(item.id, event, trigger)
            running += 1

    async def resend_due(self) -> None:
        """Send pending replies whose retry time has come, keeping each answer's parts in order."""
        now = time.time()
        blocked: set[object] = set()
        for item in self.services.store.pending(CHANNEL):
            key = item.payload.get("post_id")
            if key in blocked:
                continue
            if item.id in self._in_flight or item.next_attempt_at > now:
                blocked.add(key)
                continue
            try:
                await self._delivery.deliver(item.id, item.payload, retrying=True)
                self._log_sent(item)
            except (AudienceChangedError, QuestionGoneError, ReplyRefusedError):
                blocked.add(key)  # dropped on purpose, and logged as such by deliver()
            except ConsecutiveRepliesError:
                blocked.add(key)  # waits for someone else to reply; logged by deliver()
            except CitecastError as exc:
                blocked.add(key)
                # a rate limit is waited out (a warning); anything else is an error
                level = logging.WARNING if rate_limit_wait(exc) is not None else logging.ERROR
                log.log(
                    level,
                    "discourse topic %s: resend failed: %s",
                    item.payload.get("topic_id"),
                    exc,
                )

    def _log_sent(self, item: OutboxItem) -> None:
        """Say that a reply which had failed (rate limited, the forum down) is now posted: the
        failure was logged, and an operator reading the log should see how it ended."""
        now = self.services.store.outbox_item(item.id)
        if item.attempts and now is not None and now.status == "sent":
            log.info(
                "discourse topic %s: reply %s posted after %d failed attempt(s)",
                item.payload.get("topic_id"),
                item.id,
                item.attempts,
            )


def is_transient(exc: Exception) -> bool:
    """Whether answering again later may succeed (the model endpoint, the store or the forum
    were unreachable), as opposed to a failure that would repeat (a bug, a refused answer)."""
    return isinstance(exc, BackendError | StoreError | ChannelError | TimeoutError)


def _question_id(post_id: int) -> str:
    return f"{QUESTIONS}-{post_id}"


def _stored_question(payload: dict[str, Any]) -> tuple[PostEvent, Trigger]:
    data = payload["event"]
    known = {f.name for f in fields(PostEvent)}
    event = PostEvent(**{k: v for k, v in data.items() if k in known})
    trigger = payload["trigger"]
    if trigger not in ("new_topic", "mention", "reply"):
        raise ValueError(f"unknown trigger {trigger!r}")
    return event, trigger
