"""A fake Discord (REST API + gateway websocket) on loopback for driving the real discord.py.

The real ``discord.Client`` talks to this server exactly as it talks to Discord: REST requests
go to ``base_url`` (``DiscordSettings.api_base_url``) and the gateway websocket to
``gateway_url`` (``DiscordSettings.gateway_url``). The gateway is a tiny but real one
(``tests.fakes.discord_gateway``: IDENTIFY, READY, GUILD_CREATE, reconnect and RESUME). Tests
push further events with :meth:`FakeDiscord.dispatch` (e.g. ``MESSAGE_CREATE`` built by
:meth:`FakeDiscord.user_message`, ``MESSAGE_UPDATE`` by :meth:`FakeDiscord.edited_message` or
:meth:`FakeDiscord.link_previews`), so discord.py's own gateway code and parsers turn them into
real ``discord.Message`` objects.

This module routes the REST requests (the bot's identity, the gateway URL, channels, messages and
history, members, typing, deletes); ``tests.fakes.discord_messages`` creates and edits messages,
recording each with its files and who it would ping, and enforcing Discord's limits with
Discord's own error shapes (``tests.fakes.discord_limits``). The bot's channel permissions are
enforced (``tests.fakes.discord_access``): 403s for a channel it cannot view, send in, or
attach files in, or reply in without Read Message History (160002), refusals of any write in
a locked thread without Manage Threads (160005; 50083 when archived too), and no embeds
without Embed Links. Every request is recorded in ``requests``, every 4xx in ``refused``,
every typing call in ``typing``. :meth:`FakeDiscord.fail_next` scripts 429s (per route or
global, with ``retry_after`` and the headers discord.py expects) and 5xx answers, before or
after the request took effect, and :meth:`FakeDiscord.hold_next` holds a request's answer
after it took effect. Guild state is built with the :class:`DiscordWorld` builders.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

from aiohttp import web

from tests.fakes.discord_access import permission_refusal
from tests.fakes.discord_limits import CONTENT_LIMIT, DiscordFormError, UploadedFile, would_ping
from tests.fakes.discord_messages import FakeMessages, Recorded, json_response

__all__ = ["CONTENT_LIMIT", "FakeDiscord", "Hold", "Recorded", "UploadedFile", "would_ping"]


def _rate_limited(retry_after: float, is_global: bool) -> web.Response:
    """Discord's 429: per route (with the bucket's headers) or the bot's global limit."""
    body = {"message": "You are being rate limited.", "retry_after": retry_after}
    headers = {"Retry-After": str(max(1, round(retry_after))), "Via": "1.1 google"}
    if is_global:
        headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
    else:
        headers.update({
            "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": str(retry_after), "X-RateLimit-Scope": "user",
        })  # fmt: skip
    return json_response({**body, "global": is_global}, status=429, headers=headers)


@dataclass
class Hold:
    """A request held after it took effect: ``arrived`` once it did, answered after ``release``."""

    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


class FakeDiscord(FakeMessages):
    """The fake Discord: the world's state served over REST and the gateway, with records."""

    def __init__(self, *, max_file_bytes: int | None = None) -> None:
        super().__init__(max_file_bytes=max_file_bytes)
        self.typing: list[int] = []
        self.requests: list[tuple[str, str, int]] = []
        self.refused: list[tuple[str, str, int]] = []  # method, path, status of each 4xx
        self._failures: list[tuple[str, re.Pattern[str], int, float, bool, bool]] = []
        self._holds: list[tuple[str, re.Pattern[str], Hold]] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1, on ``port`` (0: a free one)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.serve_gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def close(self) -> None:
        """Close the websockets and stop listening."""
        await self.close_sockets()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    # -- scripting and reading the records ---------------------------------------------------

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        *,
        retry_after: float = 0.05,
        after_processing: bool = False,
        global_limit: bool = False,
    ) -> None:
        """The next request matching ``method`` and ``path_regex`` answers ``status``.

        With ``after_processing`` the request takes effect first and only the answer is an
        error, like a gateway timeout in front of a Discord that did the work. A 429 with
        ``global_limit`` is the bot's global limit (``"global": true``, ``X-RateLimit-Global``).
        """
        failure = (
            method.upper(),
            re.compile(path_regex),
            status,
            retry_after,
            after_processing,
            global_limit,
        )
        self._failures.append(failure)

    def hold_next(self, method: str, path_regex: str) -> Hold:
        """The next request matching ``method`` and ``path_regex`` takes effect, then its answer
        waits until the hold's ``release`` is set (a request still in flight when the test acts,
        e.g. a message Discord created before the bot heard back)."""
        hold = Hold()
        self._holds.append((method.upper(), re.compile(path_regex), hold))
        return hold

    # -- REST --------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        self.requests.append((request.method, path, len(self.requests)))
        failure, after = self._take_failure(request.method, path)
        if failure is not None and not after:
            return failure
        if request.headers.get("Authorization", "") != "Bot test-token":
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        try:
            response = await self._route(request, path)
        except DiscordFormError as exc:
            response = json_response(exc.body, status=exc.status)
        if failure is None and 400 <= response.status < 500:
            self.refused.append((request.method, path, response.status))
        for index, (m, pattern, hold) in enumerate(self._holds):
            if m == request.method and pattern.search(path):
                del self._holds[index]
                hold.arrived.set()
                await hold.release.wait()
                break
        return failure if failure is not None else response

    def _take_failure(self, method: str, path: str) -> tuple[web.Response | None, bool]:
        for index, (m, pattern, status, retry_after, after, is_global) in enumerate(self._failures):
            if m == method and pattern.search(path):
                del self._failures[index]
                if status == 429:
                    return _rate_limited(retry_after, is_global), after
                return json_response({"message": "Server error", "code": 0}, status=status), after
        return None, False

    async def _route(self, request: web.Request, path: str) -> web.StreamResponse:
        method = request.method
        parts = path.strip("/").split("/")
        if method == "GET" and path == "/users/@me":
            return json_response(self.bot_user)
        if method == "GET" and path == "/oauth2/applications/@me":
            return json_response(
                {
                    "id": self.bot_user["id"],
                    "name": "citecast",
                    "description": "",
                    "icon": None,
                    "bot_public": False,
                    "bot_require_code_grant": False,
                    "owner": self.add_user("owner"),
                    "verify_key": "0" * 64,
                    "flags": 0,
                }
            )
        if method == "GET" and path == "/gateway/bot":
            limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
            return json_response(
                {"url": self.gateway_url, "shards": 1, "session_start_limit": limit}
            )
        if parts[0] == "channels" and len(parts) >= 2:
            cid = int(parts[1])
            if cid not in self.channels:
                return json_response({"message": "Unknown Channel", "code": 10003}, status=404)
            refused = permission_refusal(self, method, parts, cid)
            if refused is not None:
                return json_response(refused[1], status=refused[0])
            if method == "GET" and len(parts) == 2:
                return json_response(self.channels[cid])
            if method == "POST" and parts[2:] == ["typing"]:
                self.typing.append(cid)
                return web.Response(status=204)
            if method == "POST" and parts[2:] == ["messages"]:
                return await self._create(request, cid)
            if method == "GET" and parts[2:] == ["messages"]:
                return self.history(request, cid)
            if len(parts) == 4 and parts[2] == "messages":
                mid = int(parts[3])
                message = self.messages.get(mid)
                if message is None or int(message["channel_id"]) != cid:
                    return json_response({"message": "Unknown Message", "code": 10008}, status=404)
                if method == "GET":
                    return json_response(self.as_read(message))
                if method == "PATCH":
                    return await self._edit(request, message)
                if method == "DELETE":
                    del self.messages[mid]
                    self.deleted.append(mid)
                    return web.Response(status=204)
        if method == "GET" and parts[0] == "guilds" and len(parts) == 4 and parts[2] == "members":
            member = self.members.get((int(parts[1]), int(parts[3])))
            if member is None:
                return json_response({"message": "Unknown Member", "code": 10007}, status=404)
            return json_response(member)
        return json_response({"message": "404: Not Found", "code": 0}, status=404)
