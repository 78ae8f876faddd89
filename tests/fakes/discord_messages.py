"""The fake Discord's messages over REST: creating and editing them, with Discord's checks.

:class:`FakeMessages` records every accepted create and edit (:class:`Recorded`: the payload,
the files, who it would ping) and enforces Discord's limits with Discord's own error shapes
(``tests.fakes.discord_limits``): content, embeds, fields, files, upload size (per channel,
``tests.fakes.discord_access``), the size of a whole request (``request_limit``: all of a
message's files together), components, no empty message (50006, after an edit too), at most
ten attachments after an edit, no reply to a missing message unless ``fail_if_not_exists`` is
false (then it is sent as a plain message). The bot's permissions to attach files, reply and
embed are applied here too; ``enforce_nonce`` is honoured like Discord: a create with a nonce
the bot used before returns that message, wherever it was posted (Discord keeps nonces per
author for a few minutes: :meth:`FakeMessages.forget_nonces` is those minutes passing). As on
Discord, the answer to a create carries its ``nonce``, and a message read back later does not
(Discord keeps nonces only briefly). A channel's history is read as on Discord
(``GET /channels/{id}/messages`` with ``after``/``before`` and ``limit`` 1-100, default 50,
newest first; Read Message History is checked by ``discord_access``).
``tests.fakes.discord_api`` routes the requests here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.discord_access import (
    check_attach,
    check_reply,
    request_limit,
    shown_embeds,
    upload_limit,
)
from tests.fakes.discord_gateway import FakeGateway
from tests.fakes.discord_limits import (
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
# the most messages one history request returns (Get Channel Messages' ``limit``)
HISTORY_PAGE = 100

__all__ = ["EMPTY_MESSAGE", "HISTORY_PAGE", "FakeMessages", "Recorded", "json_response"]


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON answer with exactly ``Content-Type: application/json`` (discord.py checks it)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


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


class FakeMessages(FakeGateway):
    """The world's messages as the REST API creates and edits them, with records."""

    def __init__(self, *, max_file_bytes: int | None = None) -> None:
        super().__init__()
        # None: Discord's own limits per channel (10 MiB files in DMs, the boost tier's in
        # guilds; see upload_limit and request_limit)
        self.max_file_bytes = max_file_bytes
        self.max_request_bytes: int | None = None
        self.created: list[Recorded] = []
        self.edits: list[Recorded] = []
        self.deleted: list[int] = []
        # the bot's recent nonces (Discord's are per author), with the message each created
        self._nonces: dict[str, int] = {}

    def forget_nonces(self) -> None:
        """The few minutes pass for which Discord remembers the bot's nonces."""
        self._nonces.clear()

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

    def history(self, request: web.Request, cid: int) -> web.Response:
        """Get Channel Messages: at most ``limit`` (1-100, default 50) of the channel's messages,
        newest first; with ``after`` those right after that id, with ``before`` those right
        before it, else the latest (as Discord answers it)."""
        try:
            limit = int(request.query.get("limit", "50"))
        except ValueError:
            limit = 0
        if not 1 <= limit <= HISTORY_PAGE:
            raise form_error("limit", "NUMBER_TYPE_MAX", "int value should be <= 100 and >= 1.")
        found = sorted(
            (m for m in self.messages.values() if int(m["channel_id"]) == cid),
            key=lambda m: int(m["id"]),
        )
        if "after" in request.query:
            after = int(request.query["after"])
            found = [m for m in found if int(m["id"]) > after][:limit]
        else:
            before = int(request.query.get("before", str(1 << 63)))
            found = [m for m in found if int(m["id"]) < before][-limit:]
        return json_response([self.as_read(m) for m in reversed(found)])

    async def _create(self, request: web.Request, cid: int) -> web.Response:
        payload, files = await read_body(request)
        check_attach(self, cid, files)
        check_message_limits(payload, files, self.upload_limit(cid))
        check_request_size(payload, files, self.request_limit(cid))
        if not (payload.get("content") or payload.get("embeds") or files):
            return json_response(EMPTY_MESSAGE, status=400)
        reference = payload.get("message_reference")
        check_reply(self, cid, reference)
        if reference and int(reference["message_id"]) not in self.messages:
            # Discord's default is to refuse a reply to a message that is gone; with
            # fail_if_not_exists false it sends the message as a plain one instead
            if reference.get("fail_if_not_exists", True):
                raise form_error("message_reference", "REPLIES_UNKNOWN_MESSAGE", "Unknown message")
            reference = None
        nonce = None if payload.get("nonce") is None else str(payload["nonce"])
        earlier = self._nonces.get(nonce) if nonce is not None else None
        if payload.get("enforce_nonce") and earlier in self.messages:
            # Discord returns the message already created with this nonce instead of a new one
            return json_response({**self.messages[earlier], "nonce": nonce})
        mid = self.snowflake()
        if nonce is not None:
            self._nonces[nonce] = mid
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
        channel["last_message_id"] = str(mid)
        self.created.append(
            Recorded("POST", cid, mid, payload, files, would_ping(payload, replied_to))
        )
        return json_response({**message, "nonce": nonce} if nonce is not None else message)

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
        return json_response(message)
