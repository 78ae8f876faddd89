"""A fake Discord (REST API + gateway websocket) on loopback for driving the real discord.py.

The real ``discord.Client`` talks to this server exactly as it talks to Discord: REST requests
go to ``base_url`` (``DiscordSettings.api_base_url``) and the gateway websocket to
``gateway_url`` (``DiscordSettings.gateway_url``). The gateway is a tiny but real one
(``tests.fakes.discord_gateway``: IDENTIFY, READY, GUILD_CREATE, reconnect and RESUME). Tests
push further events with :meth:`FakeDiscord.dispatch` (e.g. ``MESSAGE_CREATE`` built by
:meth:`FakeDiscord.user_message`, ``MESSAGE_UPDATE`` by :meth:`FakeDiscord.edited_message` or
:meth:`FakeDiscord.link_previews`), so discord.py's own gateway code and parsers turn them into
real ``discord.Message`` objects.

The REST side records every message, edit, uploaded file, flag and typing call, and enforces
Discord's limits with Discord's own error shapes (``tests.fakes.discord_limits``): content,
embeds, fields, files, upload size (per channel, ``tests.fakes.discord_access``), the size of
a whole request (``request_limit``: all of a message's files together), components,
no empty message (50006, after an edit too), at most ten attachments after an edit, no reply
to a missing message unless ``fail_if_not_exists`` is false (then it is sent as a plain
message). The bot's channel permissions are enforced (``tests.fakes.discord_access``): 403s
for a channel it cannot view, send in, or attach files in, or reply in without Read Message
History (160002), refusals of any write in a locked thread without Manage Threads (160005;
50083 when archived too), and no embeds without Embed Links.
Every 4xx is recorded in ``refused``. It works out which mentions a message would really ping,
so tests can assert that nobody was pinged, and honours ``enforce_nonce`` like Discord (a
retried create returns the first message). :meth:`FakeDiscord.fail_next` scripts 429s (per
route or global, with ``retry_after`` and the headers discord.py expects) and 5xx answers,
before or after the request took effect, and :meth:`FakeDiscord.hold_next` holds a request's
answer after it took effect. Guild state is built with the :class:`DiscordWorld`
builders.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.discord_access import (
    check_attach,
    check_reply,
    permission_refusal,
    request_limit,
    shown_embeds,
    upload_limit,
)
from tests.fakes.discord_gateway import FakeGateway
from tests.fakes.discord_limits import (
    CONTENT_LIMIT,
    MAX_FILES,
    DiscordFormError,
    UploadedFile,
    check_message_limits,
    check_request_size,
    form_error,
    read_body,
    too_long,
    would_ping,
)
from tests.fakes.discord_world import now_iso

EMPTY_MESSAGE = {"message": "Cannot send an empty message", "code": 50006}

__all__ = ["CONTENT_LIMIT", "FakeDiscord", "Hold", "Recorded", "UploadedFile", "would_ping"]


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer with exactly ``Content-Type: application/json`` (discord.py checks it)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


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
    return _json({**body, "global": is_global}, status=429, headers=headers)


@dataclass
class Hold:
    """A request held after it took effect: ``arrived`` once it did, answered after ``release``."""

    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Recorded:
    """One accepted create or edit: the request payload, files, and who it would ping."""

    method: str
    channel_id: int
    message_id: int
    payload: dict[str, Any]
    files: list[UploadedFile] = field(default_factory=list)
    pings: list[str] = field(default_factory=list)

    @property
    def content(self) -> str:
        return str(self.payload.get("content") or "")

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags") or 0)


class FakeDiscord(FakeGateway):
    """The fake Discord: the world's state served over REST and the gateway, with records."""

    def __init__(self, *, max_file_bytes: int | None = None) -> None:
        super().__init__()
        # None: Discord's own limits per channel (10 MiB files in DMs, the boost tier's in
        # guilds; see upload_limit and request_limit)
        self.max_file_bytes = max_file_bytes
        self.max_request_bytes: int | None = None
        self.created: list[Recorded] = []
        self.edits: list[Recorded] = []
        self.typing: list[int] = []
        self.deleted: list[int] = []
        self.requests: list[tuple[str, str, int]] = []
        self.refused: list[tuple[str, str, int]] = []  # method, path, status of each 4xx
        self._failures: list[tuple[str, re.Pattern[str], int, float, bool, bool]] = []
        self._nonces: dict[tuple[int, str], int] = {}
        self._holds: list[tuple[str, re.Pattern[str], Hold]] = []
        self._runner: web.AppRunner | None = None
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
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        try:
            response = await self._route(request, path)
        except DiscordFormError as exc:
            response = _json(exc.body, status=exc.status)
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
                return _json({"message": "Server error", "code": 0}, status=status), after
        return None, False

    async def _route(self, request: web.Request, path: str) -> web.StreamResponse:
        method = request.method
        parts = path.strip("/").split("/")
        if method == "GET" and path == "/users/@me":
            return _json(self.bot_user)
        if method == "GET" and path == "/oauth2/applications/@me":
            return _json(
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
            return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})
        if parts[0] == "channels" and len(parts) >= 2:
            cid = int(parts[1])
            if cid not in self.channels:
                return _json({"message": "Unknown Channel", "code": 10003}, status=404)
            refused = permission_refusal(self, method, parts, cid)
            if refused is not None:
                return _json(refused[1], status=refused[0])
            if method == "GET" and len(parts) == 2:
                return _json(self.channels[cid])
            if method == "POST" and parts[2:] == ["typing"]:
                self.typing.append(cid)
                return web.Response(status=204)
            if method == "POST" and parts[2:] == ["messages"]:
                return await self._create(request, cid)
            if len(parts) == 4 and parts[2] == "messages":
                mid = int(parts[3])
                message = self.messages.get(mid)
                if message is None or int(message["channel_id"]) != cid:
                    return _json({"message": "Unknown Message", "code": 10008}, status=404)
                if method == "GET":
                    return _json(message)
                if method == "PATCH":
                    return await self._edit(request, message)
                if method == "DELETE":
                    del self.messages[mid]
                    self.deleted.append(mid)
                    return web.Response(status=204)
        if method == "GET" and parts[0] == "guilds" and len(parts) == 4 and parts[2] == "members":
            member = self.members.get((int(parts[1]), int(parts[3])))
            if member is None:
                return _json({"message": "Unknown Member", "code": 10007}, status=404)
            return _json(member)
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    def upload_limit(self, channel_id: int) -> int:
        """The largest file Discord takes in this channel (``max_file_bytes`` overrides it)."""
        if self.max_file_bytes is not None:
            return self.max_file_bytes
        return upload_limit(self, channel_id)

    def request_limit(self, channel_id: int) -> int:
        """The most one request may carry here, files and JSON together (``max_request_bytes``
        overrides it; see ``discord_access.request_limit``)."""
        if self.max_request_bytes is not None:
            return self.max_request_bytes
        return request_limit(self, channel_id)

    def _attachments(self, files: list[UploadedFile]) -> list[dict[str, Any]]:
        out = []
        for upload in files:
            aid = self.snowflake()
            out.append(
                {
                    "id": str(aid),
                    "filename": upload.filename,
                    "size": len(upload.data),
                    "url": f"https://cdn.example.invalid/attachments/{aid}/{upload.filename}",
                    "proxy_url": f"https://media.example.invalid/{aid}/{upload.filename}",
                    "content_type": upload.content_type,
                }
            )
        return out

    async def _create(self, request: web.Request, cid: int) -> web.Response:
        payload, files = await read_body(request)
        check_attach(self, cid, files)
        check_message_limits(payload, files, self.upload_limit(cid))
        check_request_size(payload, files, self.request_limit(cid))
        if not (payload.get("content") or payload.get("embeds") or files):
            return _json(EMPTY_MESSAGE, status=400)
        reference = payload.get("message_reference")
        check_reply(self, cid, reference)
        if reference and int(reference["message_id"]) not in self.messages:
            # Discord's default is to refuse a reply to a message that is gone; with
            # fail_if_not_exists false it sends the message as a plain one instead
            if reference.get("fail_if_not_exists", True):
                raise form_error("message_reference", "REPLIES_UNKNOWN_MESSAGE", "Unknown message")
            reference = None
        nonce = payload.get("nonce")
        if payload.get("enforce_nonce") and nonce is not None and (cid, str(nonce)) in self._nonces:
            # Discord returns the message already created with this nonce instead of a new one.
            return _json(self.messages[self._nonces[(cid, str(nonce))]])
        mid = self.snowflake()
        if nonce is not None:
            self._nonces[(cid, str(nonce))] = mid
        message = self._message(mid, cid, self.bot_user, payload.get("content") or "")
        channel = self.channels[cid]
        if channel.get("guild_id"):
            message["guild_id"] = channel["guild_id"]
        content = payload.get("content") or ""
        message["embeds"] = shown_embeds(
            self, cid, content, payload.get("embeds") or [], bool(files)
        )
        message["flags"] = int(payload.get("flags") or 0)
        message["components"] = payload.get("components") or []
        message["attachments"] = self._attachments(files)
        replied_to: int | None = None
        if reference:
            replied_to = int(reference["message_id"])
            message["type"] = 19
            message["message_reference"] = {"message_id": str(replied_to), "channel_id": str(cid)}
        self.messages[mid] = message
        self.created.append(
            Recorded("POST", cid, mid, payload, files, would_ping(payload, replied_to))
        )
        return _json(message)

    async def _edit(self, request: web.Request, message: dict[str, Any]) -> web.Response:
        payload, files = await read_body(request)
        check_attach(self, int(message["channel_id"]), files)
        merged = {
            "content": payload.get("content", message["content"]),
            "embeds": payload.get("embeds", message["embeds"]),
            "components": payload.get("components", message["components"]),
        }
        check_message_limits(merged, files, self.upload_limit(int(message["channel_id"])))
        check_request_size(payload, files, self.request_limit(int(message["channel_id"])))
        attachments = message["attachments"]
        if "attachments" in payload:
            kept = {str(a.get("id")) for a in payload["attachments"]}
            attachments = [a for a in attachments if a["id"] in kept]
            # the limit is on the message as edited, kept attachments and new files together
            if len(attachments) + len(files) > MAX_FILES:
                raise too_long("attachments", MAX_FILES)
            attachments = attachments + self._attachments(files)
        if not (merged["content"] or merged["embeds"] or attachments):
            raise DiscordFormError(400, EMPTY_MESSAGE)
        merged["embeds"] = shown_embeds(
            self, int(message["channel_id"]), merged["content"], merged["embeds"], bool(attachments)
        )
        message["attachments"] = attachments
        message.update(merged)
        if "flags" in payload and payload["flags"] is not None:
            message["flags"] = int(payload["flags"])
        message["edited_timestamp"] = now_iso()
        mid = int(message["id"])
        cid = int(message["channel_id"])
        self.edits.append(Recorded("PATCH", cid, mid, payload, files, would_ping(payload, None)))
        return _json(message)
