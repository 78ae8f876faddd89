"""The Discord connector: a discord.py bot that answers with citations (DESIGN §7).

It answers mentions in the configured channels (all channels when ``discord.channels`` is
empty), every DM, replies to its own answers (history from the reply chain), and new posts in
the configured forum channels (in the post's thread). While it works it shows typing; the answer
streams into one message by edits, then the final edit carries the sources and files, and long
answers continue in follow-up messages (see ``discord_stream``). Nothing it sends can ping:
``allowed_mentions`` is none on the client and on every call.

Each message is claimed once in the store (``discord-message``), so a redelivered event is never
answered twice; each answer is stored as a turn, ``failed`` with a short apology to the user if
anything goes wrong. Every message posted for a turn (answer parts, the apology) is recorded
with its conversation, so a follow-up to any of them stays in that conversation however long
it grows (see ``discord_history``). The bot ignores itself and every other bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.connectors.discord_audience import channel_audience, dm_audience
from bot.connectors.discord_history import (
    conversation_for,
    question_text,
    referenced,
    remember_posted,
    reply_chain,
    with_stored_answers,
)
from bot.connectors.discord_http import build_client, setup_problem
from bot.connectors.discord_send import DEFAULT_UPLOAD_LIMIT, NO_PINGS, with_retries
from bot.connectors.discord_stream import StreamedReply
from bot.connectors.render_context import context_for
from bot.errors import CitecastError, ConfigError
from bot.models import Exchange
from renderers.base import RenderContext, capabilities_for

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from bot.config import DiscordSettings
    from bot.runtime import Services

log = logging.getLogger(__name__)
Trigger = Literal["dm", "mention", "reply", "forum"]
# how long start() waits for the gateway session; a slower Discord keeps connecting after it
CONNECT_WAIT = 15.0


def check_settings(settings: DiscordSettings) -> None:
    """Fail at start, naming the key, when the bot cannot log in."""
    if not settings.token.strip():
        raise ConfigError("discord.token: empty; set it to ${DISCORD_BOT_TOKEN}")


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
        self._in_flight: set[asyncio.Task[Any]] = set()
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
        may not use fails start-up with one ConfigError saying what to fix. Any other failure
        to connect is logged in one line and serving goes on without Discord.
        """
        capabilities_for("discord", self.services.settings.capabilities.get("discord"))
        client = build_client(self.settings, self._on_ready, self._on_message, self._on_connect)
        self.client = client
        task = asyncio.create_task(client.start(self.settings.token), name="discord")
        self._task = task
        connected = asyncio.create_task(self.connected.wait())
        try:
            await asyncio.wait(
                {task, connected}, timeout=CONNECT_WAIT, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            connected.cancel()
        if not task.done():
            if not self.connected.is_set():
                log.warning("discord: not connected after %gs; still trying", CONNECT_WAIT)
            task.add_done_callback(_log_exit)
            return
        await client.close()
        error = None if task.cancelled() else task.exception()
        problem = setup_problem(error)
        if problem is not None:
            raise problem
        log.error("discord: could not connect, so Discord is not served: %s", _reason(error))

    async def stop(self, grace: float = 10.0) -> None:
        """Let answers in flight finish (up to ``grace`` seconds), then close the client."""
        if self._in_flight:
            _, pending = await asyncio.wait(set(self._in_flight), timeout=grace)
            for task in pending:
                task.cancel()
        if self.client is not None:
            await self.client.close()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.ready.clear()
        self.connected.clear()

    # -- events ------------------------------------------------------------------------------

    async def _on_connect(self) -> None:
        self.connected.set()

    async def _on_ready(self) -> None:
        user = self.client.user if self.client else None
        log.info("discord: connected as %s", user)
        self.ready.set()

    async def _on_message(self, message: discord.Message) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            await self._resolve_channel(message)
            trigger = await self.trigger(message)
            if trigger is None:
                return
            if not self.services.store.claim_once("discord-message", str(message.id)):
                return
            await self.answer(message, trigger)
        except Exception:  # the gateway loop must survive any single bad event
            log.exception("discord: failed to handle message %s", message.id)
        finally:
            if task is not None:
                self._in_flight.discard(task)
            if self.on_handled is not None:
                self.on_handled(message.id)

    async def _resolve_channel(self, message: discord.Message) -> None:
        """Fetch a guild channel missing from the cache (e.g. a thread seen before its create).

        Without it a forum post whose THREAD_CREATE has not arrived yet would look like a
        message in an unknown channel and its forum could not be recognised.
        """
        channel = message.channel
        if not isinstance(channel, discord.PartialMessageable) or message.guild is None:
            return
        if self.client is None or message.author.bot:
            return
        me = self.client.user
        maybe_for_us = (
            message.id == channel.id  # a forum post's first message has the thread's id
            or message.reference is not None
            or (me is not None and any(u.id == me.id for u in message.mentions))
        )
        if not maybe_for_us:
            return
        try:
            fetched = await self.client.fetch_channel(channel.id)
        except discord.HTTPException as exc:
            log.info("discord: cannot fetch channel %s: %s", channel.id, exc)
            return
        if isinstance(fetched, discord.Thread | discord.TextChannel | discord.VoiceChannel):
            message.channel = fetched

    def _in_scope(self, channel: Any) -> bool:
        configured = set(self.settings.channels) | set(self.settings.forum_channels)
        if not self.settings.channels:
            return True
        parent_id = channel.parent_id if isinstance(channel, discord.Thread) else None
        return channel.id in configured or parent_id in configured

    async def trigger(self, message: discord.Message) -> Trigger | None:
        """Why the bot should answer ``message``, or None to stay quiet."""
        me = self.client.user if self.client else None
        if me is None or message.author.bot or message.author.id == me.id:
            return None
        channel = message.channel
        if isinstance(channel, discord.DMChannel):
            return "dm"
        if message.guild is None:
            return None
        if (
            isinstance(channel, discord.Thread)
            and channel.parent_id in self.settings.forum_channels
            and message.id == channel.id
        ):
            return "forum"
        if not self._in_scope(channel):
            return None
        if any(user.id == me.id for user in message.mentions):
            return "mention"
        if message.reference is not None:
            parent = await referenced(message)
            if parent is not None and parent.author.id == me.id:
                return "reply"
        return None

    # -- answering ---------------------------------------------------------------------------

    async def audience_for(self, message: discord.Message) -> frozenset[str]:
        """The audience groups of whoever can read the answer to ``message``."""
        channel = message.channel
        if isinstance(channel, discord.DMChannel) or message.guild is None:
            guilds = self.client.guilds if self.client else []
            return await dm_audience(message.author, guilds, self.settings)
        if isinstance(channel, discord.Thread | discord.abc.GuildChannel):
            me = self.client.user if self.client else None
            return channel_audience(channel, self.settings, me.id if me else 0)
        return frozenset(self.settings.public_audience)

    def render_context(self, message: discord.Message, audience: frozenset[str]) -> RenderContext:
        """Rendering for this channel: embeds setting, the upload limit, signed links.

        The upload limit is the guild's (boosts raise it); a DM has no guild and gets Discord's
        default limit, whatever ``max_file_bytes`` says.
        """
        overrides: dict[str, Any] = dict(self.services.settings.capabilities.get("discord", {}))
        upload_limit = (
            message.guild.filesize_limit if message.guild is not None else DEFAULT_UPLOAD_LIMIT
        )
        limit = min(self.settings.max_file_bytes, upload_limit)
        overrides.setdefault("embeds", self.settings.embeds)
        overrides["max_file_bytes"] = min(int(overrides.get("max_file_bytes", limit)), limit)
        return context_for(self.services, audience, capabilities_for("discord", overrides))

    async def conversation(
        self, message: discord.Message, bot_id: int
    ) -> tuple[str, tuple[Exchange, ...]]:
        """The stored conversation ``message`` continues, and its history for the model: the
        reply chain's last ``history_limit`` exchanges, answers taken from the stored turns."""
        chain = await reply_chain(message, bot_id, self.settings.history_limit)
        store = self.services.store
        conversation = conversation_for(message, chain, store)
        return conversation, with_stored_answers(chain.history, store.turns(conversation))

    async def answer(self, message: discord.Message, trigger: Trigger) -> None:
        """Answer ``message`` in its channel, storing the turn; apologise briefly on failure."""
        me = self.client.user if self.client else None
        bot_id = me.id if me else 0
        question = question_text(message, bot_id)
        if not question:
            await self._notify(message, self.settings.empty_question_message)
            return
        conversation, history = await self.conversation(message, bot_id)
        store = self.services.store
        # every message posted for this turn is recorded at once with its conversation
        remember = functools.partial(remember_posted, store, message.channel.id, conversation)
        turn_id = store.add_turn(conversation, "discord", question, status="pending")
        await self._typing(message.channel)
        typing = asyncio.create_task(self._keep_typing(message.channel))
        try:
            audience = await self.audience_for(message)
            context = self.render_context(message, audience)
            reply = StreamedReply(
                message.channel, message, self.settings, context, on_posted=remember
            )
            events = self.services.assistant.stream(question, audience, history)
            result = await reply.run(events)
            store.finish_turn(turn_id, result.answer.to_json(), result.registry)
            log.info(
                "discord: answered %s (%s) in %d message(s)", message.id, trigger, len(reply.posted)
            )
        except Exception as exc:  # the connector edge: whatever failed, the user hears of it
            log.error("discord: answering %s failed: %s", message.id, exc, exc_info=True)
            store.finish_turn(turn_id, None, None, status="failed")
            notice = await self._notify(message, self.settings.failure_message)
            if notice is not None:  # "try again" in reply to the apology continues too
                remember(notice)
        except asyncio.CancelledError:
            store.finish_turn(turn_id, None, None, status="failed")
            raise
        finally:
            typing.cancel()

    async def _notify(self, message: discord.Message, text: str) -> discord.Message | None:
        """A short plain reply (a failure, an empty question); it never pings anyone.

        Returns the message sent, or None when it could not be sent.
        """

        async def send() -> discord.Message:
            return await message.channel.send(
                text[:2000],
                allowed_mentions=NO_PINGS,
                reference=message.to_reference(fail_if_not_exists=False),
                mention_author=False,
            )

        try:
            return await with_retries(send, self.settings, "sending a notice")
        except CitecastError as exc:
            log.error("discord: could not send a notice to the user: %s", exc)
            return None

    async def _typing(self, channel: discord.abc.Messageable) -> None:
        try:
            await channel.typing()
        except discord.HTTPException as exc:
            log.debug("discord: typing indicator failed: %s", exc)

    async def _keep_typing(self, channel: discord.abc.Messageable) -> None:
        """Renew the typing indicator until cancelled (Discord shows it for ~10 seconds)."""
        while True:
            await asyncio.sleep(self.settings.typing_interval)
            await self._typing(channel)


def _reason(exc: BaseException | None) -> str:
    return f"{type(exc).__name__}: {exc}" if exc is not None else "the client stopped"


def _log_exit(task: asyncio.Task[None]) -> None:
    """Log why the client stopped after start-up: one line for a setup problem or network."""
    if task.cancelled():
        return
    exc = task.exception()
    if exc is None:
        return
    problem = setup_problem(exc)
    if problem is not None:
        log.error("discord: the client stopped, so Discord is not served: %s", problem)
    elif isinstance(exc, discord.DiscordException | OSError | TimeoutError):
        log.error("discord: the client stopped, so Discord is not served: %s", _reason(exc))
    else:  # not one of the ways discord.py reports a lost connection: keep the traceback
        log.error("discord: the client stopped: %s", exc, exc_info=exc)


__all__ = ["DiscordConnector"]
