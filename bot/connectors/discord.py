"""The Discord connector: a discord.py bot that answers with citations (DESIGN §7).

It answers mentions in the configured channels (all channels when ``discord.channels`` is
empty; a mention of a role the bot holds counts), every DM, replies to its own answers (history
from the reply chain), and new posts in the configured forum channels (in the post's thread);
never bots, webhooks or Discord's system messages (see ``discord_triggers``). While it works
it shows typing; the answer streams into one message by edits, then the final edit carries the
sources and files, and long answers continue in follow-up messages (see ``discord_stream``).
Nothing it sends can ping: ``allowed_mentions`` is none on the client and on every call.

Each message is claimed once in the store (``discord-message``), so a redelivered event is never
answered twice, and kept there from its claim until its handling is over: one a crash or a
shutdown cut short is answered when the bot next connects (see ``discord_left_over``), as
is one no session received (see ``discord_catch_up``); each answer is stored as a turn,
``failed`` with a short apology to the user if anything goes wrong (see ``discord_answer``).
Every message posted for a turn (answer parts, the apology) is recorded with its conversation,
so a follow-up to any of them stays in that conversation however long it grows (see
``discord_history``). The bot ignores itself and every other bot.

Where the bot may not post (by its cached permissions, or a locked thread) it computes nothing
and logs one line; a channel that refuses it anyway, or is deleted meanwhile, gets no apology,
nor does an answer someone deleted while it was being written. A question deleted while being
answered takes the bot's replies and notices with it, even one being sent. An edited question
is answered again in the bot's own messages, also after a restart (see ``discord_edits``).
Which ``discord.summon_roles`` count is read from the live guild cache for each message, and the
operator is told when one starts or stops counting (see ``discord_summon``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.config_env import empty_setting
from bot.connectors.discord_answer import QuestionAnswerer
from bot.connectors.discord_catch_up import ActiveChannels, catch_up
from bot.connectors.discord_connect import connect
from bot.connectors.discord_edits import Asked, AskedQuestions
from bot.connectors.discord_history import question_text
from bot.connectors.discord_http import build_client
from bot.connectors.discord_id_check import warn_unknown_ids
from bot.connectors.discord_left_over import LeftOverQuestions
from bot.connectors.discord_summon import SummonRoleWatch
from bot.connectors.discord_triggers import (
    Trigger,
    resolve_channel,
    trigger_of,
    written_by_a_person,
)
from bot.connectors.discord_unanswered import UnansweredQuestions
from bot.errors import StoreError
from renderers.base import capabilities_for

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from bot.config import DiscordSettings
    from bot.runtime import Services

log = logging.getLogger(__name__)


def check_settings(settings: DiscordSettings) -> None:
    """Fail at start, naming the key, when the bot cannot log in."""
    if not settings.token.strip():
        raise empty_setting("discord.token", settings, "; set it to ${DISCORD_BOT_TOKEN}")


class DiscordConnector:
    """Runs the Discord bot in the serving event loop (``start``/``stop``)."""

    name = "discord"

    def __init__(self, services: Services) -> None:
        check_settings(services.settings.discord)
        self.services = services
        self.settings = services.settings.discord
        self.client: discord.Client | None = None
        self.ready = asyncio.Event()
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._retrying: asyncio.Task[None] | None = None  # while Discord cannot be reached
        self._in_flight: set[asyncio.Task[Any]] = set()
        # the questions being answered, by message id, and those deleted meanwhile
        self._answering: dict[int, asyncio.Task[Any]] = {}
        self._withdrawn: set[int] = set()
        # the questions taken up, followed through their edits (saved: also after a restart)
        self._asked = AskedQuestions(store=services.store)
        self._answerer = QuestionAnswerer(
            services, lambda: self.client, self._withdrawn, on_progress=self._asked.save
        )
        # the questions claimed and not yet handled, kept in the store: a crash or a restart
        # mid-answer leaves them there, and the next start answers them
        self._unanswered = UnansweredQuestions(services.store)
        self._recovering: asyncio.Task[None] | None = None
        # those an earlier run left: read at start, answered one at a time once connected
        steps = (self._answer_new, self._answer_latest, self._handle)
        self._left_over = LeftOverQuestions(
            self.settings, self._unanswered, self._asked, lambda: self.client, self.trigger, steps
        )
        self._summon_roles = SummonRoleWatch(self.settings.summon_roles)
        # where questions were taken up last: where a new session's catch-up starts reading
        self._active = ActiveChannels(services.store)
        self._catch_up_marks: dict[int, int] = {}
        self._catching_up: asyncio.Task[int] | None = None
        # Called with each message id once its handling is over (answered or ignored), so
        # tests and operators can follow progress without polling.
        self.on_handled: Callable[[int], None] | None = None

    def routes(self) -> list[BaseRoute]:
        """Discord needs no HTTP endpoint: events arrive over the gateway."""
        return []

    async def start(self) -> None:
        """Log in and connect to the gateway; discord.py keeps the connection (and reconnects).

        Waits until the gateway session is up (or ``CONNECT_WAIT`` seconds, then keeps
        connecting in the background), so that a refused token or a privileged intent the bot
        may not use fails start-up with one ConfigError saying what to fix. If Discord cannot
        be reached (network, DNS, an outage), serving goes on and a fresh client tries again in
        the background; any other failure is logged in one line (see ``discord_connect``).
        """
        capabilities_for("discord", self.services.settings.capabilities.get("discord"))
        if self._recovering is None:  # read before any event arrives
            self._left_over.read()
        retrying = await connect(self._launch, self.connected, self.settings.retry_backoff)
        if retrying is not None:
            self._retrying = retrying

    def _launch(self) -> tuple[discord.Client, asyncio.Task[None]]:
        """A new client, logging in and connecting in the background."""
        handlers = (self._on_ready, self._on_message, self._on_connect, self._on_delete)
        client = build_client(self.settings, *handlers, self._on_edit, self._on_roles)
        self.client = client
        self._task = asyncio.create_task(client.start(self.settings.token), name="discord")
        return client, self._task

    async def stop(self, grace: float = 10.0) -> None:
        """Let answers in flight finish (up to ``grace`` seconds), then close the client."""
        if self._retrying is not None:
            self._retrying.cancel()
        running = set(self._in_flight)
        for task in (self._recovering, self._catching_up):
            if task is not None and not task.done():
                running.add(task)
        if running:
            _, pending = await asyncio.wait(running, timeout=grace)
            for task in pending:
                task.cancel()
            # their clean-up (the turn marked failed, the replies so far saved) is over
            # before the client closes, so the next start finds the question as it was left
            await asyncio.gather(*pending, return_exceptions=True)
        if self.client is not None:
            await self.client.close()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.ready.clear()
        self.connected.clear()

    # -- events ------------------------------------------------------------------------------

    async def _on_connect(self) -> None:
        # a new session (discord.py dispatches this at READY, before any of its messages):
        # what was taken up so far is where its catch-up starts reading
        self._catch_up_marks = self._active.marks()
        # logged here, not at on_ready (after the guilds load): a question can come first
        log.info("discord: connected as %s", self.client.user if self.client else None)
        self.connected.set()

    async def _on_ready(self) -> None:
        await self._on_roles()
        if self._recovering is None:  # once per start: on_ready comes again after a reconnect
            if self.client is not None:
                await warn_unknown_ids(self.client, self.settings)
            self._recovering = asyncio.create_task(
                self._left_over.answer_all(), name="discord-left-over"
            )
        if self.settings.catch_up_minutes > 0 and self.client is not None:
            # at every new session: Discord replays nothing that a lost or stopped one missed
            claimed = partial(self.services.store.is_claimed, "discord-message")
            missed = catch_up(
                self.client, self.settings, self._catch_up_marks, claimed, self._take_up_missed
            )
            self._catching_up = asyncio.create_task(missed, name="discord-catch-up")
        self.ready.set()

    async def _on_roles(self) -> None:
        """Tell the operator when a listed summon role starts or stops counting."""
        self._summon_roles.check(self.client.guilds if self.client else [])

    async def _on_message(self, message: discord.Message) -> None:
        await self._handle(message.id, self._take_up(message))

    async def _on_edit(self, message: discord.Message) -> None:
        await self._handle(message.id, self._follow_edit(message))

    async def _handle(self, message_id: int, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            await work
        except StoreError as exc:  # a full disk, a damaged store: its reason says it all
            log.error("discord: handling message %s stopped: the store failed: %s", message_id, exc)
        except Exception:  # the gateway loop must survive any single bad event
            log.exception("discord: failed to handle message %s", message_id)
        finally:
            if task is not None:
                self._in_flight.discard(task)
            if self.on_handled is not None:
                self.on_handled(message_id)

    async def _take_up(self, message: discord.Message) -> None:
        """Answer ``message`` if it is a question for the bot that nobody answered yet."""
        await resolve_channel(self.client, message, self.settings)
        trigger = await self.trigger(message)
        if trigger is None or not self._claim(message):
            return
        await self._answer_new(message, trigger, self._asked.add(message.id))

    def _claim(self, message: discord.Message) -> bool:
        """Claim ``message`` to answer (false: it was claimed before) and note its channel."""
        if not self.services.store.claim_once("discord-message", str(message.id)):
            return False
        self._active.note(message.channel.id, message.id)
        return True

    async def _take_up_missed(self, message: discord.Message) -> bool:
        """Answer ``message`` (from the history) if it is a question nobody took up yet."""
        trigger = await self.trigger(message)
        if trigger is None or not self._claim(message):
            return False
        work = self._answer_new(message, trigger, self._asked.add(message.id))
        await self._handle(message.id, work)
        return True

    async def _follow_edit(self, message: discord.Message) -> None:
        """Answer an edited question again (in place), or one the edit made a question."""
        me = self.client.user if self.client else None
        if me is None or not written_by_a_person(message, me.id):
            return  # the bot's own edits (every streamed answer) come back as updates too
        asked = self._asked.get(message.id)
        if asked is None and message.edited_at is None:
            return  # Discord added link previews: the text is as it was
        await resolve_channel(self.client, message, self.settings)
        trigger = await self.trigger(message)
        if trigger is None:
            return  # no question for the bot (any more): an earlier answer stays as it is
        if asked is None:
            if self._claim(message):
                await self._answer_new(message, trigger, self._asked.add(message.id))
                return
            asked = await self._asked.recall(message, self.settings)  # answered before a restart
            if asked is None:  # by messages the bot does not know of
                log.info("discord: %s was edited; it was answered before, so left", message.id)
                return
        text = question_text(message, me.id, self.settings)
        if not text or text == asked.text:
            return  # the same question, or nothing left to answer: the answer stands
        asked.text, asked.pending = text, (message, trigger)
        if asked.busy:
            return  # the answer being written stops at its next step and takes this edit up
        await self._answer_latest(message, trigger, asked)

    async def _answer_new(self, message: discord.Message, trigger: Trigger, asked: Asked) -> None:
        """Answer a question just claimed, keeping it in the store until that is over: a crash
        or a shutdown that cuts the answer short leaves it for the next start."""
        self._unanswered.keep(message)
        try:
            await self._answer_latest(message, trigger, asked)
        except Exception:
            self._unanswered.done(message.id)  # a failure that would only repeat
            raise
        self._unanswered.done(message.id)

    async def _answer_latest(
        self, message: discord.Message, trigger: Trigger, asked: Asked
    ) -> None:
        """Answer ``message``, then each edit of it that arrived meanwhile, in the same replies."""
        task = asyncio.current_task()
        asked.busy = True
        if task is not None:
            self._answering[message.id] = task
        try:
            while True:
                if asked.pending is not None:  # an edit that arrived before this task began
                    message, trigger = asked.pending
                asked.pending = None
                me = self.client.user if self.client else None
                asked.text = question_text(message, me.id if me else 0, self.settings)
                await self._answerer.answer(message, trigger, asked)
                if asked.pending is None:
                    return
                message, trigger = asked.pending
        finally:
            asked.busy = False
            if message.id not in self._withdrawn:  # a deleted question has no edits to follow
                self._asked.save(message.id, asked)
            self._answering.pop(message.id, None)
            self._withdrawn.discard(message.id)

    async def trigger(self, message: discord.Message) -> Trigger | None:
        """Why the bot should answer ``message``, or None to stay quiet."""
        me = self.client.user if self.client else None
        return None if me is None else await trigger_of(message, me.id, self.settings)

    async def _on_delete(self, message_ids: set[int]) -> None:
        """Stop answering questions that were deleted (by the asker or a moderator)."""
        for message_id in message_ids:
            task = self._answering.get(message_id)
            if task is not None and not task.done():
                self._withdrawn.add(message_id)
                task.cancel()


__all__ = ["DiscordConnector"]
