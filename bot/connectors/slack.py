"""The Slack channel: a slack-bolt ``AsyncApp`` over HTTP events or Socket Mode (DESIGN §7).

What it answers: ``app_mention`` in channels, direct messages, and messages in assistant threads
(where it first sets the status, ``slack.thinking_status``, and offers ``suggested_prompts``
when a thread starts). It always replies in the question's thread, passes the thread's earlier
exchanges to the assistant, streams the answer (see ``slack_sinks``), uploads cited files that
have no public link, stores the turn and puts helpful / not-helpful buttons under the answer
(``slack_answer``; this module starts and stops the app and admits its events).

Events are acknowledged at once (HTTP 200 / the Socket Mode ack) and answered in a background
task. A bolt middleware admits each verified event exactly once: ``event_id`` (the same on
every ``X-Slack-Retry-Num`` redelivery) and the message's channel+ts are claimed in the SQLite
store, and the bot's own and other bots' messages are ignored. A failed answer replaces any
half-written message with a short apology, logs the reason and marks the turn failed
(``slack_failures``). Each admitted question is kept in the store until handled: one a crash or
a shutdown cut short is answered again at the next start (``slack_unanswered``). Requests are
authorized with the bot identity learned at start, never an ``auth.test`` per request
(``slack_authorize``), so events are acked while Slack's API is unreachable. Side calls
that fail, refused or lost on the network (the thinking status, suggested prompts, the thread's
history, audience lookups), are logged and cost only themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.response import BoltResponse
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.connectors.slack_answer import SlackAnswering
from bot.connectors.slack_assistant import suggest_prompts
from bot.connectors.slack_audience import SlackAudiences
from bot.connectors.slack_authorize import KnownIdentity
from bot.connectors.slack_client import Sleep, build_web_client
from bot.connectors.slack_delivery import SlackPoster
from bot.connectors.slack_events import SlackQuestion, question_from_event, rate_limit_notice
from bot.connectors.slack_http import SlackHttpDoor
from bot.connectors.slack_interactions import SlackInteractions
from bot.connectors.slack_outbox import SlackOutbox
from bot.connectors.slack_outbox_audience import QueuedAudience
from bot.connectors.slack_replies import ReplyLog
from bot.connectors.slack_settings import check_settings as check_settings
from bot.connectors.slack_sinks import Payload
from bot.connectors.slack_token import (
    open_socket_url,
    recheck_bot_token,
    token_skipped,
    verify_bot_token,
)
from bot.connectors.slack_unanswered import KeptQuestions
from bot.errors import StoreError
from bot.models import Answer
from bot.runtime import Services

log = logging.getLogger(__name__)

EVENT_SCOPE = "slack-event"
MESSAGE_SCOPE = "slack-message"


class SlackConnector:
    """The Slack connector (implements ``bot.connectors.base.Connector``)."""

    name = "slack"

    def __init__(self, services: Services, *, sleep: Sleep = asyncio.sleep) -> None:
        settings = services.settings.slack
        check_settings(settings)
        self.services = services
        self.settings = settings
        self._sleep = sleep
        self.client = build_web_client(settings, sleep)
        bolt_log = logging.getLogger("bot.connectors.slack.bolt")
        # bolt reads ${SLACK_BOT_TOKEN} itself even when given a client, then warns on every
        # start that the variable goes unused; the client carries slack.bot_token already
        bolt_log.addFilter(token_skipped)
        # who the bot is, learned at start: no auth.test per request (see slack_authorize)
        self._identity = KnownIdentity(settings.bot_token, self.client, self._identified)
        try:
            self.app = AsyncApp(
                client=self.client,
                authorize=self._identity.authorize_function(),
                signing_secret=settings.signing_secret,
                process_before_response=False,
                request_verification_enabled=settings.mode == "http",
                logger=bolt_log,
                name="citecast",
            )
        finally:
            bolt_log.removeFilter(token_skipped)
        # each reply recorded under its question: a restart tidies exactly a question's own
        # half answer, and a follow-up's history pairs answers with their questions
        self.replies = ReplyLog(services.store)
        self.poster = SlackPoster(self.client, settings, recorder=self.replies.record)
        self.audiences = SlackAudiences(self.client, settings)
        # a queued answer is judged again for those reading its thread when it is posted
        audience = QueuedAudience.of(services, self.audiences)
        self.outbox = SlackOutbox(services.store, self.poster, settings, audience=audience)
        self._outbox_task: asyncio.Task[None] | None = None
        self._http = SlackHttpDoor(self.app)
        self._socket: AsyncSocketModeHandler | None = None
        self._connecting: asyncio.Task[None] | None = None
        self._token_check: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._bot_user_id: str | None = None
        self._bot_id: str | None = None
        # admitted questions are kept in the store until handled: a crash mid-answer leaves
        # them there, and the next start answers them (see ``slack_unanswered``)
        self.answering = SlackAnswering(
            services,
            self.client,
            self.poster,
            self.outbox,
            self.audiences,
            sleep=sleep,
            identity=self._ids,
        )
        self._kept = KeptQuestions(services.store, self.answering.answer)
        self.app.use(self._admit)
        self.interactions = SlackInteractions(
            services,
            self.client,
            self.poster,
            self.outbox,
            self.audiences,
            self.render,
            self._spawn,
        )
        self.interactions.register(self.app)

    # -- Connector protocol ------------------------------------------------------------------

    def routes(self) -> list[BaseRoute]:
        """``POST /slack/events`` and ``POST /slack/interactions`` (HTTP mode only)."""
        if self.settings.mode != "http":
            return []

        async def endpoint(request: Request) -> Response:
            return await self._http.handle(request)

        return [
            Route("/slack/events", endpoint, methods=["POST"]),
            Route("/slack/interactions", endpoint, methods=["POST"]),
        ]

    async def start(self) -> None:
        """Check the tokens with Slack, then connect Socket Mode in the background.

        A token Slack refuses fails start-up with one ConfigError naming the key. Otherwise
        connecting does not block start-up: while Slack is unreachable the client keeps
        retrying and the rest of ``citecast serve`` runs, and the bot token is checked again
        in the background (:meth:`token_checked` waits for that check).
        """
        self._kept.read_left_over()  # before any event is admitted
        identity = await verify_bot_token(self.client)
        if identity is not None:
            self._identified(identity)
        elif self._token_check is None:
            check = recheck_bot_token(self.client, self._sleep, self._identified)
            self._token_check = asyncio.create_task(check)
        url = None
        if self.settings.mode == "socket" and self._socket is None:
            warned = identity is None  # one warning that Slack cannot be reached is enough
            url = await open_socket_url(self.client, self.settings.app_token, warned=warned)
        if self._outbox_task is None:
            self._outbox_task = asyncio.create_task(self.outbox.run())
        recovery = self._kept.recover(self.client, self.poster, self.settings.apology)
        if recovery is not None:
            self._spawn(recovery)
        if self.settings.mode == "socket" and self._socket is None:
            self._socket = AsyncSocketModeHandler(self.app, self.settings.app_token)
            # the URL just opened is used, not thrown away for another
            self._socket.client.wss_uri = url
            self._connecting = asyncio.create_task(self._connect(self._socket))

    def _identified(self, identity: dict[str, Any]) -> None:
        self._bot_user_id = identity.get("user_id") or self._bot_user_id
        self._bot_id = identity.get("bot_id") or self._bot_id
        self._identity.bot_user_id, self._identity.bot_id = self._bot_user_id, self._bot_id
        self.poster.uploads.check_scopes(identity.get("scopes"))
        self.audiences.directory.learn_home(identity)  # auth.test is asked once

    def _ids(self) -> tuple[str | None, str | None]:
        return self._bot_user_id, self._bot_id  # learned at start, or later

    async def token_checked(self) -> None:
        """Wait until the background check of the bot token (after a start that could not
        check it) has ended; returns at once when there is none."""
        if self._token_check is not None:
            await asyncio.shield(self._token_check)

    async def _connect(self, socket: AsyncSocketModeHandler) -> None:
        try:
            await socket.connect_async()  # type: ignore[no-untyped-call]
        except Exception:
            log.exception("Slack Socket Mode could not connect")
            return
        log.info("Slack Socket Mode connected")

    async def stop(self) -> None:
        """Disconnect; in-flight answers get ``shutdown_grace_seconds`` to finish."""
        for task in (self._outbox_task, self._token_check, self._connecting):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self._outbox_task = self._token_check = self._connecting = None
        if self._socket is not None:
            await self._socket.close_async()  # type: ignore[no-untyped-call]
            self._socket = None
        pending = list(self._tasks)
        if pending:
            _, late = await asyncio.wait(pending, timeout=self.settings.shutdown_grace_seconds)
            for task in late:
                task.cancel()
            if late:
                await asyncio.gather(*late, return_exceptions=True)

    async def drain(self) -> None:
        """Wait until every admitted event has been fully answered."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- admission ---------------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)

    async def _admit(
        self,
        body: dict[str, Any],
        context: AsyncBoltContext,
        next_: Callable[[], Awaitable[BoltResponse]],
    ) -> BoltResponse | None:
        """Every verified request passes here; events are admitted once and acked at once."""
        if rate_limit_notice(body):  # said in the log; bolt would answer 404
            return BoltResponse(status=200, body="")
        if body.get("type") != "event_callback":
            return await next_()
        self._bot_user_id = context.bot_user_id or self._bot_user_id
        self._bot_id = context.bot_id or self._bot_id
        event = body.get("event") or {}
        if event.get("type") == "assistant_thread_started":
            self._spawn(suggest_prompts(self.client, event, self.settings.suggested_prompts))
        else:
            question = question_from_event(body, event, self._bot_user_id)
            try:
                admitted = question is not None and self._claim(question)
            except StoreError as exc:
                # Not acknowledged, so Slack delivers the event again later.
                log.error("cannot record Slack event %s: %s", body.get("event_id"), exc)
                return BoltResponse(status=503, body="store unavailable")
            if question is not None and admitted:
                self._spawn(self._kept.take(question))
        return BoltResponse(status=200, body="")

    def _claim(self, question: SlackQuestion) -> bool:
        store = self.services.store
        if not store.claim_once(EVENT_SCOPE, question.event_id):
            log.info("Slack event %s already answered (redelivery)", question.event_id)
            return False
        try:  # a message can arrive as two events (app_mention and message): answer it once
            return store.claim_once(MESSAGE_SCOPE, f"{question.channel}:{question.ts}")
        except StoreError:  # given back, or Slack's redelivery would pass for a duplicate
            with contextlib.suppress(StoreError):
                store.release_claim(EVENT_SCOPE, question.event_id)
            raise

    # -- answering (see slack_answer) -------------------------------------------------------

    def render(
        self,
        answer: Answer,
        audience: frozenset[str],
        turn_id: int | None,
        attach_files: bool = True,
    ) -> Payload:
        """The Slack payload of ``answer`` for a viewer in ``audience`` (files numbered)."""
        return self.answering.render(answer, audience, turn_id, attach_files)


def _log_failure(task: asyncio.Task[None]) -> None:
    # Background work handles its own failures; one that escapes is a bug, and nobody
    # awaits these tasks, so it would otherwise surface only when the task is collected.
    if not task.cancelled() and task.exception() is not None:
        log.error("Slack background task failed", exc_info=task.exception())
