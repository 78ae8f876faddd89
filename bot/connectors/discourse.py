"""The Discourse connector: webhook in, cited replies with native footnotes out (DESIGN §7).

Flow: Discourse POSTs ``post_created`` to ``/discourse/webhook``; the signature is checked, the
event acknowledged at once (200), and, when a trigger applies (a new topic in a listed category,
an ``@mention`` of the bot, a reply to one of its posts), the question is answered in a
background task: topic history → assistant → ``renderers.render("discourse", …)`` → uploads →
the question re-read (not answered once deleted, hidden or moved) → ``POST /posts.json``.

Each post is answered at most once: ``store.claim_once("discourse-post", post_id)`` before the
answer starts, so a redelivered webhook is acknowledged and ignored.

The parts, each with its own reliability decisions:

- ``discourse_settings``: the settings checked at start;
- ``discourse_start``: the forum address and the API key checked with the forum at start;
- ``discourse_webhook``: the signature, the event and the trigger rules (no I/O);
- ``discourse_answer``: answering one post (history, assistant, composing, outbox);
- ``discourse_quiet``: a new topic the knowledge base has nothing on gets no reply;
- ``discourse_outbox``: questions kept until answered, and the worker retrying what is due;
- ``discourse_delivery``: posting a reply at most once, and only to its audience;
- ``discourse_audience``: which groups read a category (a subcategory without a mapping of
  its own inherits its nearest mapped parent's);
- ``discourse_publish``, ``discourse_topic``, ``discourse_client``: post bodies, topic
  history, the REST API.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from bot.connectors.discourse_answer import PostAnswerer
from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_delivery import ReplyDelivery, audience_for
from bot.connectors.discourse_http import RetryPolicy
from bot.connectors.discourse_ignored import ignored_because, refused_body
from bot.connectors.discourse_outbox import DiscourseOutbox
from bot.connectors.discourse_settings import check_settings, warn_weak_secret
from bot.connectors.discourse_start import check_forum
from bot.connectors.discourse_webhook import (
    PostEvent,
    Trigger,
    parse_post_event,
    trigger_for,
    verify_signature,
)
from bot.connectors.request_body import read_capped
from bot.errors import SignatureError, StoreError, ValidationError
from bot.runtime import Services

log = logging.getLogger(__name__)

DEDUPE_SCOPE = "discourse-post"
MAX_WEBHOOK_BYTES = 2_000_000


class DiscourseConnector:
    """Answers Discourse posts; implements :class:`bot.connectors.base.Connector`."""

    name = "discourse"

    def __init__(
        self,
        services: Services,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        shutdown_grace: float = 10.0,
    ) -> None:
        check_settings(services.settings.discourse)
        self.services = services
        self.shutdown_grace = shutdown_grace
        self.settings = services.settings.discourse
        self._sleep = sleep
        self._client: DiscourseClient | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        # outbox ids (questions and replies) being worked on: the outbox worker leaves them be
        self._in_flight: set[str] = set()
        self._worker: asyncio.Task[None] | None = None
        self._delivery = ReplyDelivery(services, self._ensure_client, self._in_flight)
        self._outbox = DiscourseOutbox(
            services, self._ensure_client, self._delivery, self._in_flight, self._start_answer
        )
        self._answerer = PostAnswerer(services, self._ensure_client, self._delivery, self._outbox)

    # -- Connector protocol --------------------------------------------------------------------

    def routes(self) -> list[BaseRoute]:
        """``POST /discourse/webhook``."""
        return [Route("/discourse/webhook", self._webhook, methods=["POST"])]

    async def start(self) -> None:
        """Warn about a short webhook secret, check the forum address and the API key
        (``discourse_start``: a refusal stops the start with one ConfigError, a forum out of
        reach is one warning), then start the outbox worker (which also resends replies, and
        answers questions left unanswered, after a crash or a restart)."""
        warn_weak_secret(self.settings)
        await check_forum(self.settings)
        self._ensure_client()
        if self._worker is None:
            self._worker = asyncio.create_task(self._outbox.run(), name="discourse-outbox")

    async def stop(self) -> None:
        """Give answers in flight ``shutdown_grace`` seconds to finish, cancel the rest (their
        turns are recorded as failed; their questions are answered again, and a reply already
        in the outbox is sent, at the next start), then close the client."""
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
            self._worker = None
        if self._tasks:
            _, late = await asyncio.wait(list(self._tasks), timeout=self.shutdown_grace)
            for task in late:
                task.cancel()
            await self.drain()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def drain(self) -> None:
        """Wait until every answer task started so far has finished."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- webhook -------------------------------------------------------------------------------

    async def _webhook(self, request: Request) -> JSONResponse:
        body = await read_capped(request, MAX_WEBHOOK_BYTES)
        if body is None:
            return JSONResponse({"error": "payload too large"}, status_code=413)
        signature = request.headers.get("X-Discourse-Event-Signature")
        try:
            verify_signature(self.settings.webhook_secret, body, signature)
        except SignatureError as exc:
            log.warning("discourse webhook rejected: %s", exc)
            return JSONResponse({"error": str(exc)}, status_code=401 if not signature else 403)
        event_name = request.headers.get("X-Discourse-Event", "")
        if event_name != "post_created":
            return JSONResponse({"ok": True, "ignored": event_name or "no event"})
        try:
            event = parse_post_event(body)
        except ValidationError as exc:
            return refused_body(request, exc)
        if event.username.lower() != self.settings.api_username.lower():
            self._someone_posted(event)
        trigger = trigger_for(event, self.settings)
        if trigger is None:
            reason = ignored_because(event, self.settings)
            log.debug(
                "discourse topic %s post %s ignored: %s", event.topic_id, event.post_id, reason
            )
            return JSONResponse({"ok": True, "ignored": "no trigger", "reason": reason})
        try:
            first_delivery = self.services.store.claim_once(DEDUPE_SCOPE, str(event.post_id))
        except StoreError as exc:
            # Without the dedupe record we cannot promise one answer: let Discourse redeliver.
            log.error("discourse topic %s post %s: %s", event.topic_id, event.post_id, exc)
            return JSONResponse({"error": "store unavailable"}, status_code=503)
        if not first_delivery:
            return JSONResponse({"ok": True, "ignored": "duplicate delivery"})
        try:
            # Discourse does not redeliver what got a 200: keep the question until it is answered.
            question_id = self._outbox.keep_question(event, trigger)
        except StoreError as exc:
            log.error("discourse topic %s post %s: %s", event.topic_id, event.post_id, exc)
            with contextlib.suppress(StoreError):
                self.services.store.release_claim(DEDUPE_SCOPE, str(event.post_id))
            return JSONResponse({"error": "store unavailable"}, status_code=503)
        self._start_answer(question_id, event, trigger)
        return JSONResponse({"ok": True, "accepted": trigger})

    def _someone_posted(self, event: PostEvent) -> None:
        """Another user's post (any post, answered or not) lifts the forum's max consecutive
        replies in its topic: parts of an answer waiting for it are sent now."""
        try:
            self._outbox.someone_posted(event.topic_id)
        except StoreError as exc:
            # they are still sent on their schedule
            log.warning("discourse topic %s: %s", event.topic_id, exc)

    def _start_answer(self, question_id: str, event: PostEvent, trigger: Trigger) -> None:
        self._in_flight.add(question_id)
        task = asyncio.create_task(
            self._answerer.answer(event, trigger, question_id), name=f"discourse-{event.post_id}"
        )
        self._tasks.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self._tasks.discard(finished)
            self._in_flight.discard(question_id)

        task.add_done_callback(done)

    # -- answering -----------------------------------------------------------------------------

    def audience_for(self, category_id: int | None) -> frozenset[str]:
        """The groups ``audience_by_category`` maps ``category_id`` itself to (public unless
        configured); answers also give an unmapped subcategory its parent's audience."""
        return audience_for(self.settings, category_id)

    def question_for(self, event: PostEvent, trigger: Trigger) -> str:
        """The question the post asks: the topic title and body for a new topic."""
        return self._answerer.question_for(event, trigger)

    def _ensure_client(self) -> DiscourseClient:
        if self._client is None:
            self._client = DiscourseClient(
                self.settings.base_url,
                self.settings.api_key,
                self.settings.api_username,
                timeout=self.settings.request_timeout,
                retry=RetryPolicy(
                    max_attempts=self.settings.max_attempts,
                    base_seconds=self.settings.retry_base_seconds,
                    max_seconds=self.settings.retry_max_seconds,
                ),
                sleep=self._sleep,
            )
        return self._client
