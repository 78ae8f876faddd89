"""Building the ``discord.Client`` and pointing it at another Discord API (tests, proxies).

discord.py has no documented option for the REST base URL or the gateway URL: every request is
built from the class-wide ``discord.http.Route.BASE`` and the gateway from
``DiscordWebSocket.DEFAULT_GATEWAY``. Overwriting those would change every client in the
process, so instead each client gets its own :class:`RedirectingHTTPClient`, a narrow subclass of
the real ``discord.http.HTTPClient`` that rewrites only the URL prefix of each request (and of the
gateway websocket) before handing it to the unchanged library code. Rate limits, retries,
multipart uploads and the gateway protocol all stay discord.py's own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

from bot.config import DiscordSettings

log = logging.getLogger(__name__)

INTENTS_USED = ("guilds", "guild_messages", "dm_messages", "message_content")


def bot_intents() -> discord.Intents:
    """Guilds, guild and DM messages, and the (privileged) message content intent."""
    intents = discord.Intents.none()
    for name in INTENTS_USED:
        setattr(intents, name, True)
    return intents


class RedirectingHTTPClient(HTTPClient):
    """discord.py's HTTP client with the API base URL and gateway URL of one deployment."""

    def __init__(
        self,
        *args: Any,
        api_base_url: str | None = None,
        gateway_url: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.api_base_url = api_base_url.rstrip("/") if api_base_url else None
        self.gateway_url = yarl.URL(gateway_url) if gateway_url else None

    async def request(
        self,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Any = None,
        **kwargs: Any,
    ) -> Any:
        if self.api_base_url and route.url.startswith(Route.BASE):
            route.url = self.api_base_url + route.url[len(Route.BASE) :]
        return await super().request(route, files=files, form=form, **kwargs)

    async def ws_connect(self, url: str, *, compress: int = 0) -> aiohttp.ClientWebSocketResponse:
        target = yarl.URL(url)
        if self.gateway_url is not None and target.host == DiscordWebSocket.DEFAULT_GATEWAY.host:
            target = self.gateway_url.with_query(target.query)
        return await super().ws_connect(str(target), compress=compress)


def build_client(
    settings: DiscordSettings,
    on_ready: Callable[[], Coroutine[Any, Any, None]],
    on_message: Callable[[discord.Message], Coroutine[Any, Any, None]],
    on_connect: Callable[[], Coroutine[Any, Any, None]] | None = None,
    on_delete: Callable[[set[int]], Coroutine[Any, Any, None]] | None = None,
    on_edit: Callable[[discord.Message], Coroutine[Any, Any, None]] | None = None,
    on_roles: Callable[[], Coroutine[Any, Any, None]] | None = None,
) -> discord.Client:
    """A ``discord.Client`` with our intents, handlers and (when configured) redirected URLs.

    ``on_connect`` runs when the gateway session is established (READY: the token and the
    intents were accepted), before ``on_ready``, which waits for the guilds to arrive.
    ``on_delete`` gets the ids of deleted messages (one, or a bulk delete's), cached or not.
    ``on_edit`` gets every edited message as it is now, cached or not (the client keeps no
    message cache, so ``on_message_edit`` would never fire); see :func:`tolerate_partial_updates`.
    ``on_roles`` runs after a role is created, updated or deleted, after the bot's own member
    changes (a role given or taken) and after it joins or leaves a server.

    ``allowed_mentions`` is ``none()`` client-wide as well as on every send, so even a message
    built outside the connector's send path cannot ping anyone.
    """
    # The bot never joins voice, so discord.py's start-up warnings that the voice libraries
    # (PyNaCl, davey) are missing are noise an operator would take for a fault. discord.py
    # itself clears these flags after warning once per process; we clear them first.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    client = discord.Client(
        intents=bot_intents(),
        allowed_mentions=discord.AllowedMentions.none(),
        guild_ready_timeout=settings.guild_ready_timeout,
        max_messages=None,
        chunk_guilds_at_startup=False,
    )
    if settings.api_base_url or settings.gateway_url:
        old = client.http
        http = RedirectingHTTPClient(
            old.loop,
            old.connector if old.connector is not discord.utils.MISSING else None,
            api_base_url=settings.api_base_url,
            gateway_url=settings.gateway_url,
        )
        client.http = http
        client._connection.http = http
    client.event(_named("on_ready", on_ready))
    client.event(_named("on_message", on_message))
    if on_connect is not None:
        client.event(_named("on_connect", on_connect))
    if on_delete is not None:
        deleted = on_delete

        async def one(event: discord.RawMessageDeleteEvent) -> None:
            await deleted({event.message_id})

        async def bulk(event: discord.RawBulkMessageDeleteEvent) -> None:
            await deleted(set(event.message_ids))

        client.event(_named("on_raw_message_delete", one))
        client.event(_named("on_raw_bulk_message_delete", bulk))
    if on_edit is not None:
        edited = on_edit

        async def edit(event: discord.RawMessageUpdateEvent) -> None:
            await edited(event.message)

        client.event(_named("on_raw_message_edit", edit))
    if on_roles is not None:
        changed = on_roles

        async def roles(*_: object) -> None:
            await changed()

        for name in ROLE_EVENTS:
            client.event(_named(name, roles))
    tolerate_partial_updates(client)
    return client


# the events after which the roles the bot holds may have changed (the Guilds intent has them;
# the bot's own member update comes without the privileged Members intent)
ROLE_EVENTS = (
    "on_guild_role_create",
    "on_guild_role_update",
    "on_guild_role_delete",
    "on_member_update",
    "on_guild_join",
    "on_guild_remove",
)

# the fields discord.py's Message needs; Discord may leave them out of a MESSAGE_UPDATE that
# only adds link previews ({id, channel_id, guild_id, embeds})
MESSAGE_FIELDS = ("type", "content", "author", "timestamp")


def tolerate_partial_updates(client: discord.Client) -> None:
    """Skip MESSAGE_UPDATE payloads that are not whole messages, instead of crashing.

    discord.py (2.5 and later) builds a full ``Message`` from every MESSAGE_UPDATE, and a
    partial one (Discord documents that an update may carry only some fields, e.g. an embed
    unfurl) raises KeyError inside the gateway's read loop, which ends ``Client.start``: one link
    preview would stop the bot for good. Such an update changes no question text, so it is
    dropped here, before the parser; every whole update still reaches discord.py unchanged.
    """
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
    parse = parsers.get("MESSAGE_UPDATE")
    if parse is None:
        return
    whole = parse

    def guarded(data: Any) -> None:
        if not isinstance(data, dict) or any(key not in data for key in MESSAGE_FIELDS):
            found = data.get("id") if isinstance(data, dict) else None
            log.debug("discord: skipping a partial update of message %s", found)
            return
        whole(data)

    parsers["MESSAGE_UPDATE"] = guarded


def _named(
    name: str, handler: Callable[..., Coroutine[Any, Any, None]]
) -> Callable[..., Coroutine[Any, Any, None]]:
    async def wrapper(*args: Any) -> None:
        await handler(*args)

    wrapper.__name__ = name
    return wrapper
