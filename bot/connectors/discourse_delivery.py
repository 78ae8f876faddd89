"""Posting a Discourse reply from the store's outbox: at most once, and only to its audience.

- The reply is put in the store's outbox (channel ``discourse``) before it is sent and marked
  sent once the forum accepted it. A reply that failed (after the client's own 429/5xx retries)
  is retried by the outbox worker with the same doubling backoff, up to 12 attempts; one left by
  a crash is sent at the next start. A 429 asking for a longer wait than the client keeps a task
  waiting (``retry_max_seconds``) is retried no sooner than the forum asked, and a rate limit
  alone gives up only after 48 attempts (the attempts are one count in the store, so a failure
  other than 429 still ends the item once 12 are reached).
- After a failure the forum may have saved the reply through (a 5xx, a timeout, a connection
  dropped mid-request) the topic is read before the reply is sent again, so a reply that landed
  with its response lost is never posted twice, also on forums without a duplicate window.
- Discourse refuses a body identical to one the same user posted within 5 minutes ("Body is too
  similar to what you recently posted", a 422 worded in the forum's language). Two cases cause
  it: our own earlier attempt did land (the response was lost) — then the topic already has the
  bot's reply to that post and nothing more is sent — or the bot is legitimately giving the same
  answer twice (e.g. the same question in two topics) — then the reply is sent once more with an
  invisible HTML comment naming the post it answers, which makes the body unique.
- A reply composed for a private audience (a category in ``audience_by_category``) is only
  posted while the topic still sits in a category read by that audience: the topic is read
  just before each attempt, and a reply whose topic has moved somewhere more public (e.g. while
  it waited out a rate limit) is dropped, never posted.
- The question is read again just before its reply is sent (one request: the first part of a
  reply, and every resend by the outbox): a question deleted, hidden (flagged), withdrawn by its
  author or moved to another topic or a private message since its webhook arrived is not
  answered; the reply is dropped and logged. So is the topic: one closed, archived or deleted
  meanwhile takes no reply, also when the bot user is staff and the forum would let it post
  (``discourse_topic_state``).
- A refusal that a resend cannot change (``DiscourseAPIError.permanent``: a topic closed,
  archived or deleted, a category the bot may not post in or see, a key without the scope, a
  body the forum will never take) drops the reply and its later parts at once, logged once
  with the forum's reason; only 429, 5xx and lost connections are retried, and a 403 the
  forum gives because it refuses the key itself (revoked: ``discourse_key``), which keeps the
  reply in the outbox until the key is restored.
- A reply the forum refuses as too long (its ``max_post_length`` lowered below
  ``discourse.max_post_length``) is split again to the limit the refusal names, or to half its
  length when it names none, and the limit is kept for later replies: ``discourse_limits``,
  ``discourse_refit``.
- A reply shorter than the forum's minimum (``discourse.min_post_length``, or the larger one
  a "Body is too short" refusal names, which is then kept) is lengthened with a note, and its
  question quoted when a note is not enough: ``discourse_short``.
- A reply dropped (refused, its topic moved, its question gone, or given up after its
  attempts, which drops its later parts too) records its turn as ``failed``: ``citecast
  report`` must not count a question whose answer never reached the topic as answered.
- A part refused under the forum's ``max_consecutive_replies`` is added to the previous part
  by an edit when both fit one post, else kept and sent once the rule may have lifted:
  ``discourse_consecutive``.
- Looking for a reply that landed is ``discourse_landed``; the checks of the topic and the
  question are ``discourse_prechecks``; sending one item's body and reading the forum's 422
  refusals is ``discourse_send``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.connectors.discourse_client import DiscourseAPIError, DiscourseClient
from bot.connectors.discourse_consecutive import (
    ConsecutiveRepliesError,
    log_waiting,
)
from bot.connectors.discourse_key import KEY_RETRY_SECONDS, KeyRefusedError, refused_key
from bot.connectors.discourse_limits import (
    MAX_REFITS,
    LearnedLimit,
    PostTooLongError,
    part_of,
    refits,
)
from bot.connectors.discourse_prechecks import (
    AudienceChangedError,
    QuestionGoneError,
    audience_for,
)
from bot.connectors.discourse_send import send_reply
from bot.connectors.discourse_short import LearnedMinimum
from bot.connectors.discourse_topic_state import refusal_message
from bot.connectors.discourse_upload_types import RefusedTypes
from bot.connectors.outbox_turns import fail_queued_turn
from bot.errors import ChannelError, CitecastError, RateLimitedError
from bot.runtime import Services

log = logging.getLogger(__name__)

CHANNEL = "discourse"
OUTBOX_ATTEMPTS = 12
OUTBOX_RATE_LIMITED_ATTEMPTS = 48

__all__ = [
    "CHANNEL",
    "AudienceChangedError",
    "QuestionGoneError",
    "ReplyDelivery",
    "ReplyRefusedError",
    "audience_for",
]


class ReplyRefusedError(ChannelError):
    """The reply failed in a way a resend cannot change: the forum refused it for good (a
    topic closed, archived or deleted, a category the bot may not post in, a key without the
    scope), or the outbox item itself is unusable (malformed, or a bug)."""


class ReplyDelivery:
    """Sends the replies kept in the outbox and records each attempt's outcome in the store.

    ``client`` gives the connector's API client (opened on first use); ``in_flight`` is the
    connector's set of outbox ids being worked on, which the outbox worker leaves alone.
    """

    def __init__(
        self,
        services: Services,
        client: Callable[[], DiscourseClient],
        in_flight: set[str],
    ) -> None:
        self.services = services
        self.settings = services.settings.discourse
        self._client = client
        self.in_flight = in_flight
        # the forum's post limit when its refusals showed it lower than configured
        self.limit = LearnedLimit()
        # the file types the forum refused to take: not sent again while the connector runs
        self.refused_types = RefusedTypes()
        # the forum's shortest post when its refusals showed it above the setting
        self.minimum = LearnedMinimum()
        # what was logged about categories, once each for composing and posting (see
        # CategoryReaders)
        self.logged_categories: set[tuple[str, int]] = set()

    async def deliver(self, item_id: str, payload: dict[str, Any], retrying: bool) -> None:
        """Send one outbox item; on failure record it for the outbox worker and re-raise.

        ``retrying``: sent by the outbox worker, so an earlier attempt (before a failure, a
        crash or a restart) may have landed. An item no longer pending (split again after a
        refusal, or dropped, since the caller listed it) is not sent.
        """
        item = self.services.store.outbox_item(item_id)
        if item is not None and item.status != "pending":
            return
        too_long = await self._deliver(item_id, payload, retrying)
        if too_long is not None:
            from bot.connectors.discourse_refit import refit

            await refit(self, item_id, payload, too_long)

    async def _deliver(
        self, item_id: str, payload: dict[str, Any], retrying: bool
    ) -> PostTooLongError | None:
        """Send one outbox item (see :meth:`deliver`); returns the refusal when the reply is
        to be split again."""
        store = self.services.store
        self.in_flight.add(item_id)
        try:
            await self.post(payload, retrying=retrying)
        except AudienceChangedError as exc:
            log.error("discourse: %s; reply %s dropped", exc, item_id)
            store.mark_failed_attempt(item_id, str(exc), 0, max_attempts=1)
            self.drop_later_parts(payload, str(exc))
            fail_queued_turn(self.services.store, payload, CHANNEL)
            raise
        except QuestionGoneError as exc:
            log.warning("discourse: %s; reply %s dropped", exc, item_id)
            store.mark_failed_attempt(item_id, str(exc), 0, max_attempts=1)
            fail_queued_turn(self.services.store, payload, CHANNEL)
            raise
        except DiscourseAPIError as refusal:
            if isinstance(refusal, PostTooLongError) and refits(payload) < MAX_REFITS:
                return refusal
            # a 403 from a key the forum refuses (revoked) passes once it is restored
            username = self.settings.api_username
            failure = await refused_key(self._client(), refusal, username) or refusal
            if not failure.permanent:
                if isinstance(failure, ConsecutiveRepliesError):
                    # a warning when it starts waiting, INFO for each attempt after
                    allowed = self.settings.max_consecutive_replies
                    log_waiting(payload, allowed, store.outbox_item(item_id))
                self.record_failure(item_id, payload, failure)
                if failure is not refusal:
                    raise failure from refusal
                raise
            raise self.refuse(item_id, payload, failure) from failure
        except CitecastError as exc:
            self.record_failure(item_id, payload, exc)
            raise
        except Exception as exc:
            # A malformed item or a bug fails the same way every round, and the outbox worker
            # sends in order: retried, it would hold back every reply queued after it.
            log.exception(
                "discourse topic %s: reply %s failed unexpectedly; dropped",
                payload.get("topic_id"),
                item_id,
            )
            reason = f"failed unexpectedly ({type(exc).__name__}: {exc}); not retried"
            store.mark_failed_attempt(item_id, reason, 0, max_attempts=1)
            self.drop_later_parts(payload, reason)
            fail_queued_turn(self.services.store, payload, CHANNEL)
            raise ReplyRefusedError(f"reply {item_id} {reason}") from exc
        finally:
            self.in_flight.discard(item_id)
        store.mark_sent(item_id)
        return None

    def refuse(
        self, item_id: str, payload: dict[str, Any], reason: str | Exception
    ) -> ReplyRefusedError:
        """Drop a reply refused for good (by the forum, or by citecast's check of the topic),
        with its later parts, and fail its turn; returns the error to raise."""
        refused = ReplyRefusedError(refusal_message(payload, reason))
        log.error("discourse: %s; reply %s dropped", refused, item_id)
        self.services.store.mark_failed_attempt(item_id, str(refused), 0, max_attempts=1)
        self.drop_later_parts(payload, str(refused))
        fail_queued_turn(self.services.store, payload, CHANNEL)
        return refused

    def client(self) -> DiscourseClient:
        """The connector's API client (opened on first use)."""
        return self._client()

    def record_failure(self, item_id: str, payload: dict[str, Any], exc: CitecastError) -> None:
        """Record a failure that may pass, for the outbox worker to retry when due (and the
        turn as failed once the reply is given up)."""
        store = self.services.store
        item = store.outbox_item(item_id)
        attempts = (item.attempts if item else 0) + 1
        retry_in = self._client().retry.backoff(attempts)
        limit = OUTBOX_ATTEMPTS
        if isinstance(exc, RateLimitedError):
            # The forum is up and said when to come back: wait that long, and let a rate
            # limit outlast the attempts that would give up on a failing forum.
            retry_in = max(retry_in, exc.retry_after)
            limit = OUTBOX_RATE_LIMITED_ATTEMPTS
        elif isinstance(exc, DiscourseAPIError) and exc.rate_limited:
            # a rate limit the forum (or a plugin) answered with another status than 429
            retry_in = max(retry_in, exc.wait_seconds or 0.0)
            limit = OUTBOX_RATE_LIMITED_ATTEMPTS
        elif isinstance(exc, KeyRefusedError):
            # an admin restores a revoked key in minutes or hours, not in a backoff's seconds
            retry_in = max(retry_in, KEY_RETRY_SECONDS)
            limit = OUTBOX_RATE_LIMITED_ATTEMPTS
            if attempts == 1:
                log.error(
                    "discourse topic %s: %s; reply %s kept in the outbox and retried every %d"
                    " minutes",
                    payload.get("topic_id"),
                    exc,
                    item_id,
                    KEY_RETRY_SECONDS // 60,
                )
        store.mark_failed_attempt(item_id, str(exc), retry_in, max_attempts=limit)
        if attempts >= limit:
            log.error("discourse: reply %s given up after %d attempts: %s", item_id, attempts, exc)
            self.drop_later_parts(payload, str(exc))
            fail_queued_turn(self.services.store, payload, CHANNEL)

    def drop_later_parts(self, payload: dict[str, Any], reason: str) -> None:
        """Drop the parts after ``payload``'s of the same reply: a continuation must not be
        posted without the post it continues."""
        store = self.services.store
        part = part_of(payload)
        for item in store.pending(CHANNEL):
            if (
                item.payload.get("post_id") == payload.get("post_id")
                and item.payload.get("topic_id") == payload.get("topic_id")
                and part_of(item.payload) > part
            ):
                store.mark_failed_attempt(item.id, reason, 0, max_attempts=1)

    async def post(self, payload: dict[str, Any], retrying: bool = False) -> None:
        """Post one reply (see :func:`bot.connectors.discourse_send.send_reply`)."""
        await send_reply(self, payload, retrying)
