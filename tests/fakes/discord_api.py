"""A fake Discord (REST API + gateway websocket) on loopback for driving the real discord.py.

The real ``discord.Client`` talks to this server exactly as it talks to Discord: REST requests
go to ``base_url`` (``DiscordSettings.api_base_url``) and the gateway websocket to
``gateway_url`` (``DiscordSettings.gateway_url``). The gateway is a tiny but real one: it sends
HELLO, answers heartbeats, receives IDENTIFY (its intents are recorded), then dispatches READY
and one GUILD_CREATE per guild. Tests push further events with :meth:`FakeDiscord.dispatch`
(e.g. ``MESSAGE_CREATE`` built by :meth:`FakeDiscord.user_message`), so discord.py's own
gateway code and parsers turn them into real ``discord.Message`` objects.

The REST side records every message, edit, uploaded file, flag and typing call, and ENFORCES
Discord's limits with Discord's own error shapes: content ≤ 2,000 characters, ≤ 10 embeds,
title ≤ 256, description ≤ 4,096, ≤ 25 fields (name ≤ 256, value ≤ 1,024), footer ≤ 2,048,
author name ≤ 256, all embed text ≤ 6,000, ≤ 10 files, each file within the upload limit
(HTTP 413, code 40005), ≤ 5 component rows of ≤ 5 buttons with labels ≤ 80; any breach answers
HTTP 400 ``{"code": 50035, "message": "Invalid Form Body", "errors": {…}}``. It also works out
which mentions a message would really ping (content + ``allowed_mentions`` + reply), so tests can
assert that nobody was pinged. :meth:`FakeDiscord.fail_next` scripts 429s (with ``retry_after``
and the headers discord.py expects) and 5xx answers.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

DISCORD_EPOCH_MS = 1_420_070_400_000
CONTENT_LIMIT = 2000
EMBED_LIMITS = {"title": 256, "description": 4096, "footer": 2048, "author": 256}
EMBED_TOTAL_LIMIT = 6000
MAX_EMBEDS = 10
MAX_FIELDS = 25
MAX_FILES = 10

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer with exactly ``Content-Type: application/json`` (discord.py checks it)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class UploadedFile:
    """One file received in a multipart request."""

    field: str
    filename: str
    content_type: str | None
    data: bytes


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


class DiscordFormError(Exception):
    """A payload Discord would reject; carries the HTTP status and the error body."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("message"))
        self.status = status
        self.body = body


def _form_error(path: str, code: str, message: str) -> DiscordFormError:
    errors: dict[str, Any] = {}
    node = errors
    parts = path.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = {"_errors": [{"code": code, "message": message}]}
    return DiscordFormError(400, {"code": 50035, "message": "Invalid Form Body", "errors": errors})


def _too_long(path: str, limit: int) -> DiscordFormError:
    return _form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def check_message_limits(
    payload: dict[str, Any], files: list[UploadedFile], max_file_bytes: int
) -> None:
    """Raise DiscordFormError for anything real Discord would refuse in a create or edit."""
    content = payload.get("content") or ""
    if len(content) > CONTENT_LIMIT:
        raise _too_long("content", CONTENT_LIMIT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise _too_long("embeds", MAX_EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        total += _check_embed(i, embed)
    if total > EMBED_TOTAL_LIMIT:
        raise _form_error(
            "embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )
    if len(files) > MAX_FILES:
        raise _too_long("files", MAX_FILES)
    for upload in files:
        if len(upload.data) > max_file_bytes:
            raise DiscordFormError(413, {"code": 40005, "message": "Request entity too large"})
    _check_components(payload.get("components") or [])


def _check_embed(i: int, embed: dict[str, Any]) -> int:
    total = 0
    for key in ("title", "description"):
        text = embed.get(key) or ""
        if len(text) > EMBED_LIMITS[key]:
            raise _too_long(f"embeds.{i}.{key}", EMBED_LIMITS[key])
        total += len(text)
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > EMBED_LIMITS["footer"]:
        raise _too_long(f"embeds.{i}.footer.text", EMBED_LIMITS["footer"])
    if len(author) > EMBED_LIMITS["author"]:
        raise _too_long(f"embeds.{i}.author.name", EMBED_LIMITS["author"])
    total += len(footer) + len(author)
    fields_ = embed.get("fields") or []
    if len(fields_) > MAX_FIELDS:
        raise _too_long(f"embeds.{i}.fields", MAX_FIELDS)
    for j, fld in enumerate(fields_):
        name, value = fld.get("name") or "", fld.get("value") or ""
        if not name or not value:
            raise _form_error(f"embeds.{i}.fields.{j}", "BASE_TYPE_REQUIRED", "Required.")
        if len(name) > 256:
            raise _too_long(f"embeds.{i}.fields.{j}.name", 256)
        if len(value) > 1024:
            raise _too_long(f"embeds.{i}.fields.{j}.value", 1024)
        total += len(name) + len(value)
    url = embed.get("url")
    if url is not None and not str(url).startswith(("http://", "https://")):
        raise _form_error(f"embeds.{i}.url", "URL_TYPE_INVALID_URL", "Not a well formed URL.")
    return total


def _check_components(rows: list[dict[str, Any]]) -> None:
    if len(rows) > 5:
        raise _too_long("components", 5)
    for i, row in enumerate(rows):
        buttons = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(buttons) <= 5:
            raise _form_error(f"components.{i}", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Bad row.")
        for j, button in enumerate(buttons):
            if len(button.get("label") or "") > 80:
                raise _too_long(f"components.{i}.components.{j}.label", 80)
            if button.get("style") == 5 and not str(button.get("url", "")).startswith("http"):
                raise _form_error(
                    f"components.{i}.components.{j}.url", "URL_TYPE_INVALID_URL", "Bad URL."
                )


def would_ping(payload: dict[str, Any], replied_to: int | None) -> list[str]:
    """Who Discord would notify for this message, following its ``allowed_mentions`` rules."""
    content = payload.get("content") or ""
    allowed = payload.get("allowed_mentions")
    parse = {"everyone", "users", "roles"} if allowed is None else set(allowed.get("parse", []))
    users = set() if allowed is None else {str(u) for u in allowed.get("users", [])}
    roles = set() if allowed is None else {str(r) for r in allowed.get("roles", [])}
    pings: list[str] = []
    if "everyone" in parse:
        pings += [m for m in ("@everyone", "@here") if m in content]
    for uid in _USER_MENTION.findall(content):
        if "users" in parse or uid in users:
            pings.append(f"user:{uid}")
    for rid in _ROLE_MENTION.findall(content):
        if "roles" in parse or rid in roles:
            pings.append(f"role:{rid}")
    if replied_to is not None and (allowed is None or allowed.get("replied_user", True)):
        pings.append(f"reply:{replied_to}")
    return pings


class FakeDiscord:
    """The fake Discord: guild/channel state, the REST API, the gateway, records and scripts."""

    def __init__(self, *, max_file_bytes: int = 10 * 1024 * 1024) -> None:
        self.max_file_bytes = max_file_bytes
        self._ids = itertools.count(1)
        self.bot_user = self._user(self.snowflake(), "citecast", bot=True)
        self.users: dict[int, dict[str, Any]] = {int(self.bot_user["id"]): self.bot_user}
        self.guilds: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.members: dict[tuple[int, int], dict[str, Any]] = {}
        self.created: list[Recorded] = []
        self.edits: list[Recorded] = []
        self.typing: list[int] = []
        self.deleted: list[int] = []
        self.requests: list[tuple[str, str, int]] = []
        self.identify: dict[str, Any] | None = None
        self._failures: list[tuple[str, re.Pattern[str], int, float, bool]] = []
        self._nonces: dict[tuple[int, str], int] = {}
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = itertools.count(1)
        self._identified = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on 127.0.0.1, on a free port."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def close(self) -> None:
        """Close the websockets and stop listening."""
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- state builders ----------------------------------------------------------------------

    def snowflake(self) -> int:
        """A fresh snowflake id carrying the current time, as Discord's do."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._ids) & 0x3FFFFF)

    def _user(self, uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
        return {
            "id": str(uid),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
        }

    def add_user(self, name: str, *, bot: bool = False) -> dict[str, Any]:
        user = self._user(self.snowflake(), name, bot=bot)
        self.users[int(user["id"])] = user
        return user

    def add_guild(self, name: str = "Guild", *, premium_tier: int = 0) -> int:
        gid = self.snowflake()
        self.guilds[gid] = {
            "id": str(gid),
            "name": name,
            "unavailable": False,
            "owner_id": self.bot_user["id"],
            "premium_tier": premium_tier,
            "roles": [self._role(gid, "@everyone")],
            "channels": [],
            "threads": [],
            "members": [],
            "member_count": 1,
            "features": [],
            "emojis": [],
            "stickers": [],
            "voice_states": [],
            "presences": [],
            "large": False,
            "joined_at": _now_iso(),
        }
        self.add_member(gid, self.bot_user)
        return gid

    def _role(self, rid: int, name: str) -> dict[str, Any]:
        return {
            "id": str(rid),
            "name": name,
            "permissions": "0",
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def add_role(self, guild_id: int, name: str) -> int:
        rid = self.snowflake()
        self.guilds[guild_id]["roles"].append(self._role(rid, name))
        return rid

    def add_member(self, guild_id: int, user: dict[str, Any], roles: Sequence[int] = ()) -> None:
        member = {
            "user": user,
            "roles": [str(r) for r in roles],
            "joined_at": _now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
        }
        self.members[(guild_id, int(user["id"]))] = member
        if user is self.bot_user:
            self.guilds[guild_id]["members"].append(member)

    def add_channel(
        self,
        guild_id: int,
        name: str,
        *,
        kind: int = 0,
        view_only_roles: list[int] | None = None,
        view_only_members: Sequence[int] = (),
    ) -> int:
        """A text (0) or forum (15) channel.

        ``view_only_roles`` hides it from @everyone and lets those roles (and the users in
        ``view_only_members``) view it, as permission overwrites do on Discord.
        """
        cid = self.snowflake()
        overwrites: list[dict[str, Any]] = []
        if view_only_roles is not None:
            view = 1 << 10
            overwrites.append({"id": str(guild_id), "type": 0, "allow": "0", "deny": str(view)})
            overwrites += [
                {"id": str(r), "type": 0, "allow": str(view), "deny": "0"} for r in view_only_roles
            ]
            overwrites += [
                {"id": str(u), "type": 1, "allow": str(view), "deny": "0"}
                for u in view_only_members
            ]
        channel = {
            "id": str(cid),
            "type": kind,
            "guild_id": str(guild_id),
            "name": name,
            "position": len(self.guilds[guild_id]["channels"]),
            "permission_overwrites": overwrites,
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
        }
        if kind == 15:
            channel.update({"available_tags": [], "flags": 0, "default_reaction_emoji": None})
        self.guilds[guild_id]["channels"].append(channel)
        self.channels[cid] = channel
        return cid

    def thread_payload(self, guild_id: int, parent_id: int, name: str, owner: int) -> int:
        """Register a public thread (e.g. a forum post) and return its id."""
        tid = self.snowflake()
        self.channels[tid] = {
            "id": str(tid),
            "type": 11,
            "guild_id": str(guild_id),
            "parent_id": str(parent_id),
            "name": name,
            "owner_id": str(owner),
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "flags": 0,
            "applied_tags": [],
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": _now_iso(),
                "locked": False,
            },
        }
        return tid

    def open_dm(self, user: dict[str, Any]) -> int:
        cid = self.snowflake()
        self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [user]}
        return cid

    def user_message(
        self,
        channel_id: int,
        author: dict[str, Any],
        content: str,
        *,
        mention_bot: bool = False,
        reply_to: int | None = None,
        message_id: int | None = None,
    ) -> dict[str, Any]:
        """A MESSAGE_CREATE payload from ``author`` (stored so it can be fetched later)."""
        channel = self.channels[channel_id]
        mid = message_id or self.snowflake()
        if mention_bot:
            content = f"<@{self.bot_user['id']}> {content}"
        data: dict[str, Any] = self._message(mid, channel_id, author, content)
        if mention_bot:
            data["mentions"] = [self.bot_user]
        guild_id = channel.get("guild_id")
        if guild_id is not None:
            data["guild_id"] = guild_id
            member = self.members.get((int(guild_id), int(author["id"])))
            if member is not None:
                data["member"] = {k: v for k, v in member.items() if k != "user"}
        if reply_to is not None:
            data["type"] = 19
            data["message_reference"] = {
                "message_id": str(reply_to),
                "channel_id": str(channel_id),
                **({"guild_id": guild_id} if guild_id else {}),
            }
            if reply_to in self.messages:
                data["referenced_message"] = self.messages[reply_to]
        self.messages[mid] = data
        return data

    def _message(
        self, mid: int, channel_id: int, author: dict[str, Any], content: str
    ) -> dict[str, Any]:
        return {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": author,
            "content": content,
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
            "components": [],
        }

    # -- scripting and reading the records ---------------------------------------------------

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        *,
        retry_after: float = 0.05,
        after_processing: bool = False,
    ) -> None:
        """The next request matching ``method`` and ``path_regex`` answers ``status``.

        With ``after_processing`` the request takes effect first and only the answer is an
        error, like a gateway timeout in front of a Discord that did the work.
        """
        failure = (method.upper(), re.compile(path_regex), status, retry_after, after_processing)
        self._failures.append(failure)

    def messages_in(self, channel_id: int) -> list[dict[str, Any]]:
        """The bot's messages in a channel as they are now (after edits), oldest first."""
        return [
            m
            for m in self.messages.values()
            if int(m["channel_id"]) == channel_id and m["author"]["id"] == self.bot_user["id"]
        ]

    # -- gateway -----------------------------------------------------------------------------

    async def wait_identified(self) -> None:
        await self._identified.wait()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH event to every identified client."""
        for ws in list(self._sockets):
            await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data}))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            if frame.get("op") == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif frame.get("op") == 2:
                self.identify = frame["d"]
                self._sockets.append(ws)
                await self._send_ready(ws)
                self._identified.set()
        if ws in self._sockets:
            self._sockets.remove(ws)
        return ws

    async def _send_ready(self, ws: web.WebSocketResponse) -> None:
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(gid), "unavailable": True} for gid in self.guilds],
            "session_id": "fake-session",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": self.bot_user["id"], "flags": 0},
        }
        await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": next(self._seq), "d": ready}))
        for guild in self.guilds.values():
            frame = {"op": 0, "t": "GUILD_CREATE", "s": next(self._seq), "d": guild}
            await ws.send_str(json.dumps(frame))

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
        return failure if failure is not None else response

    def _take_failure(self, method: str, path: str) -> tuple[web.Response | None, bool]:
        for index, (m, pattern, status, retry_after, after) in enumerate(self._failures):
            if m == method and pattern.search(path):
                del self._failures[index]
                if status == 429:
                    body = {
                        "message": "You are being rate limited.",
                        "retry_after": retry_after,
                        "global": False,
                    }
                    headers = {
                        "Retry-After": str(max(1, round(retry_after))),
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(retry_after),
                        "X-RateLimit-Scope": "user",
                        "Via": "1.1 google",
                    }
                    return _json(body, status=429, headers=headers), after
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

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], list[UploadedFile]]:
        if not request.content_type.startswith("multipart/"):
            return dict(await request.json()), []
        payload: dict[str, Any] = {}
        files: list[UploadedFile] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            data = await part.read()
            if name == "payload_json":
                payload = json.loads(data)
            elif name.startswith("files["):
                files.append(
                    UploadedFile(
                        name,
                        part.filename or "",
                        part.headers.get("Content-Type"),
                        bytes(data),
                    )
                )
        return payload, files

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
        payload, files = await self._read_body(request)
        check_message_limits(payload, files, self.max_file_bytes)
        if not (payload.get("content") or payload.get("embeds") or files):
            return _json({"message": "Cannot send an empty message", "code": 50006}, status=400)
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
        message["embeds"] = payload.get("embeds") or []
        message["flags"] = int(payload.get("flags") or 0)
        message["components"] = payload.get("components") or []
        message["attachments"] = self._attachments(files)
        reference = payload.get("message_reference")
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
        payload, files = await self._read_body(request)
        merged = {
            "content": payload.get("content", message["content"]),
            "embeds": payload.get("embeds", message["embeds"]),
            "components": payload.get("components", message["components"]),
        }
        check_message_limits(merged, files, self.max_file_bytes)
        if "attachments" in payload:
            kept = {str(a.get("id")) for a in payload["attachments"]}
            existing = [a for a in message["attachments"] if a["id"] in kept]
            message["attachments"] = existing + self._attachments(files)
        message.update(merged)
        if "flags" in payload and payload["flags"] is not None:
            message["flags"] = int(payload["flags"])
        message["edited_timestamp"] = _now_iso()
        mid = int(message["id"])
        cid = int(message["channel_id"])
        self.edits.append(Recorded("PATCH", cid, mid, payload, files, would_ping(payload, None)))
        return _json(message)
