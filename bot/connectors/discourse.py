"""The Discourse connector: webhook in, cited replies with native footnotes out (DESIGN §7).

Flow: Discourse POSTs ``post_created`` to ``/discourse/webhook``; the signature is checked, the
event acknowledged at once (200), and, when a trigger applies (a new topic in a listed category,
an ``@mention`` of the bot, a reply to one of its posts), the question is answered in a
background task: topic history → assistant → ``renderers.render("discourse", …)`` → uploads →
``POST /posts.json``.

Reliability decisions:

- Each post is answered at most once: ``store.claim_once("discourse-post", post_id)`` before
  the answer starts, so a redelivered webhook is acknowledged and ignored.
- The reply is put in the store's outbox before it is sent and marked sent once the forum
  accepted it. A reply that failed (after the client's own 429/5xx retries) is retried by the
  outbox worker with the same doubling backoff, up to 12 attempts; one left by a crash is sent
  at the next start. A 429 asking for a longer wait than the client keeps a task waiting
  (``retry_max_seconds``) is retried no sooner than the forum asked, and a rate limit alone
  gives up only after 48 attempts (the attempts are one count in the store, so a failure other
  than 429 still ends the item once 12 are reached).
- Discourse refuses a body identical to one the same user posted within 5 minutes ("Body is too
  similar to what you recently posted"). Two cases cause it: our own earlier attempt did land
  (the response was lost) — then the topic already has the bot's reply to that post and nothing
  more is sent — or the bot is legitimately giving the same answer twice (e.g. the same question
  in two topics) — then the reply is sent once more with an invisible HTML comment naming the
  post it answers, which makes the body unique.
- Failures are logged with the topic id and the turn is stored as ``failed``.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from bot.config import DiscourseSettings
from bot.connectors.discourse_client import DiscourseAPIError, DiscourseClient, RetryPolicy
from bot.connectors.discourse_publish import PostComposer
from bot.connectors.discourse_topic import history_from_posts
from bot.connectors.discourse_webhook import (
    PostEvent,
    Trigger,
    parse_post_event,
    strip_mention,
    trigger_for,
    verify_signature,
)
from bot.errors import (
    CitecastError,
    ConfigError,
    RateLimitedError,
    SignatureError,
    StoreError,
    ValidationError,
)
from bot.models import Exchange
from bot.runtime import Services

log = logging.getLogger(__name__)

CHANNEL = "discourse"
DEDUPE_SCOPE = "discourse-post"
MAX_WEBHOOK_BYTES = 2_000_000
UNIQUE_SUFFIX = "\n\n<!-- citecast: reply to post {post_id} -->"
SUFFIX_RESERVE = 64
OUTBOX_ATTEMPTS = 12
OUTBOX_RATE_LIMITED_ATTEMPTS = 48
TOO_SIMILAR = "too similar to what you recently posted"


def check_settings(settings: DiscourseSettings) -> None:
    """Fail at start, naming every missing key, when the forum could not be answered.

    Without them the server would start and then refuse every webhook (no secret to check
    signatures with) or fail every reply (no API address or key).
    """
    missing = [
        f"discourse.{key}"
        for key in ("base_url", "api_key", "webhook_secret")
        if not str(getattr(settings, key)).strip()
    ]
    if missing:
        raise ConfigError(f"{', '.join(missing)}: required when discourse is enabled")
    if urlsplit(settings.base_url).scheme not in ("http", "https"):
        raise ConfigError(
            f"discourse.base_url: must be the forum's http(s) address: {settings.base_url!r}"
        )


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
        self._in_flight: set[str] = set()
        self._worker: asyncio.Task[None] | None = None

    # -- Connector protocol --------------------------------------------------------------------

    def routes(self) -> list[BaseRoute]:
        """``POST /discourse/webhook``."""
        return [Route("/discourse/webhook", self._webhook, methods=["POST"])]

    async def start(self) -> None:
        """Open the API client and start the outbox worker (which also resends after a crash)."""
        self._ensure_client()
        if self._worker is None:
            self._worker = asyncio.create_task(self._outbox_loop(), name="discourse-outbox")

    async def stop(self) -> None:
        """Give answers in flight ``shutdown_grace`` seconds to finish, cancel the rest (their
        turns are recorded as failed; a reply already in the outbox is sent at the next start),
        then close the client."""
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
        body = await request.body()
        if len(body) > MAX_WEBHOOK_BYTES:
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
            return JSONResponse({"error": str(exc)}, status_code=400)
        trigger = trigger_for(event, self.settings)
        if trigger is None:
            return JSONResponse({"ok": True, "ignored": "no trigger"})
        try:
            first_delivery = self.services.store.claim_once(DEDUPE_SCOPE, str(event.post_id))
        except StoreError as exc:
            # Without the dedupe record we cannot promise one answer: let Discourse redeliver.
            log.error("discourse topic %s post %s: %s", event.topic_id, event.post_id, exc)
            return JSONResponse({"error": "store unavailable"}, status_code=503)
        if not first_delivery:
            return JSONResponse({"ok": True, "ignored": "duplicate delivery"})
        task = asyncio.create_task(self._answer(event, trigger), name=f"discourse-{event.post_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return JSONResponse({"ok": True, "accepted": trigger})

    # -- answering -----------------------------------------------------------------------------

    def audience_for(self, category_id: int | None) -> frozenset[str]:
        """The groups whose readers see ``category_id`` (public unless configured)."""
        groups = self.settings.audience_by_category.get(str(category_id))
        return frozenset(groups) if groups else frozenset({"public"})

    def question_for(self, event: PostEvent, trigger: Trigger) -> str:
        """The question the post asks: the topic title and body for a new topic."""
        text = strip_mention(event.raw, self.settings.api_username)
        if trigger == "new_topic" and event.topic_title:
            return f"{event.topic_title}\n\n{text}".strip()
        return text or event.topic_title

    async def _answer(self, event: PostEvent, trigger: Trigger) -> None:
        store = self.services.store
        question = self.question_for(event, trigger)
        conversation = f"discourse-topic-{event.topic_id}"
        turn_id = store.add_turn(conversation, CHANNEL, question, status="pending")
        answered = False
        try:
            audience = self.audience_for(event.category_id)
            history = await self._history(event)
            reply = await self.services.assistant.reply(question, audience, history)
            composer = PostComposer(self._ensure_client(), self.services, audience, turn_id)
            raws = await composer.compose(reply.answer, reserve=SUFFIX_RESERVE)
            items: list[tuple[str, dict[str, Any]]] = []
            for part, raw in enumerate(raws, start=1):
                payload = {
                    "topic_id": event.topic_id,
                    "raw": raw,
                    "reply_to_post_number": event.post_number,
                    "post_id": event.post_id,
                    "part": part,
                }
                item_id = f"discourse-{event.post_id}" + (f"-{part}" if part > 1 else "")
                items.append((store.enqueue(CHANNEL, payload, item_id=item_id), payload))
            store.finish_turn(turn_id, reply.answer.to_json(), reply.registry)
            answered = True
            # From here a failure leaves the reply in the outbox for the worker to resend.
            for item_id, payload in items:
                await self._deliver(item_id, payload)
        except asyncio.CancelledError:
            if not answered:
                store.finish_turn(turn_id, None, None, status="failed")
            raise
        except CitecastError as exc:
            log.error("discourse topic %s post %s: %s", event.topic_id, event.post_id, exc)
            if not answered:
                store.finish_turn(turn_id, None, None, status="failed")
        except Exception:
            # A bug must not vanish inside a background task: log it with the topic.
            log.exception(
                "discourse topic %s post %s: unexpected error", event.topic_id, event.post_id
            )
            if not answered:
                store.finish_turn(turn_id, None, None, status="failed")

    async def _history(self, event: PostEvent) -> list[Exchange]:
        if self.settings.history_posts == 0 or event.post_number <= 1:
            return []
        try:
            topic, posts = await self._ensure_client().recent_posts(
                event.topic_id, self.settings.history_posts + 1
            )
        except CitecastError as exc:
            # History helps but is not essential: answer the post on its own.
            log.warning("discourse topic %s: no history (%s)", event.topic_id, exc)
            return []
        title = str(topic.get("title") or event.topic_title)
        return history_from_posts(posts, self.settings.api_username, event.post_number, title)

    # -- delivery ------------------------------------------------------------------------------

    async def _deliver(self, item_id: str, payload: dict[str, Any]) -> None:
        """Send one outbox item; on failure record it for the outbox worker and re-raise."""
        store = self.services.store
        self._in_flight.add(item_id)
        try:
            await self._post(payload)
        except CitecastError as exc:
            item = store.outbox_item(item_id)
            retry_in = self._ensure_client().retry.backoff((item.attempts if item else 0) + 1)
            limit = OUTBOX_ATTEMPTS
            if isinstance(exc, RateLimitedError):
                # The forum is up and said when to come back: wait that long, and let a
                # rate limit outlast the attempts that would give up on a failing forum.
                retry_in = max(retry_in, exc.retry_after)
                limit = OUTBOX_RATE_LIMITED_ATTEMPTS
            store.mark_failed_attempt(item_id, str(exc), retry_in, max_attempts=limit)
            raise
        finally:
            self._in_flight.discard(item_id)
        store.mark_sent(item_id)

    async def _post(self, payload: dict[str, Any]) -> None:
        client = self._ensure_client()
        topic_id = int(payload["topic_id"])
        reply_to = int(payload["reply_to_post_number"])
        raw = str(payload["raw"])
        try:
            await client.create_post(topic_id, raw, reply_to)
            return
        except DiscourseAPIError as exc:
            if exc.status != 422 or not exc.mentions(TOO_SIMILAR):
                raise
        part = int(payload.get("part") or 1)
        if await self._already_posted(topic_id, reply_to, raw, part):
            log.info("discourse topic %s: reply to #%s was already posted", topic_id, reply_to)
            return
        suffix = UNIQUE_SUFFIX.format(post_id=payload.get("post_id", reply_to))
        if part > 1:
            suffix = suffix.replace(" -->", f", part {part} -->")
        await client.create_post(topic_id, raw + suffix, reply_to)

    async def _already_posted(self, topic_id: int, post_number: int, raw: str, part: int) -> bool:
        """True when the topic already holds this reply (an earlier attempt whose answer got lost).

        Compares bodies when the forum sends them, else counts the bot's replies to the post.
        """
        _, posts = await self._ensure_client().recent_posts(topic_id, 50)
        bot = self.settings.api_username.lower()
        ours = [
            p
            for p in posts
            if str(p.get("username") or "").lower() == bot
            and p.get("reply_to_post_number") == post_number
        ]
        if ours and all(isinstance(p.get("raw"), str) for p in ours):
            wanted = _squash(raw)
            return any(_squash(str(p["raw"])) == wanted for p in ours)
        return len(ours) >= part

    async def _outbox_loop(self) -> None:
        while True:
            await self._resend_due()
            await asyncio.sleep(self.settings.outbox_poll_seconds)

    async def _resend_due(self) -> None:
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
                await self._deliver(item.id, item.payload)
            except CitecastError as exc:
                blocked.add(key)
                log.error(
                    "discourse topic %s: resend failed: %s", item.payload.get("topic_id"), exc
                )

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


def _squash(text: str) -> str:
    # Discourse compares bodies with whitespace removed.
    return re.sub(r"\s+", "", text)
