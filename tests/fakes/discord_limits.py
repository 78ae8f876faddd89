"""Discord's message limits and mention rules, as the fake Discord API enforces them.

Limits (with Discord's error shapes): content ≤ 2,000 characters, ≤ 10 embeds, title ≤ 256,
description ≤ 4,096, ≤ 25 fields (name ≤ 256, value ≤ 1,024), footer ≤ 2,048, author name ≤
256, all embed text ≤ 6,000, ≤ 10 files, each file within the upload limit and the whole
request (its JSON and all its files together) within the request limit (both HTTP 413, code
40005), ≤ 5 component rows of ≤ 5 buttons with labels ≤ 80; any other breach is HTTP 400
``{"code": 50035, "message": "Invalid Form Body", "errors": {…}}``. :func:`would_ping` works
out who a message would really notify (content + ``allowed_mentions`` + reply);
:func:`read_body` reads a create or edit request (JSON or multipart) as Discord does.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

CONTENT_LIMIT = 2000
EMBED_LIMITS = {"title": 256, "description": 4096, "footer": 2048, "author": 256}
EMBED_TOTAL_LIMIT = 6000
MAX_EMBEDS = 10
MAX_FIELDS = 25
MAX_FILES = 10
# "The maximum request size when sending a message is 25 MiB" (Discord's Create Message docs)
MAX_REQUEST_BYTES = 25 * 1024 * 1024
TOO_LARGE = {"code": 40005, "message": "Request entity too large"}

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


@dataclass
class UploadedFile:
    """One file received in a multipart request."""

    field: str
    filename: str
    content_type: str | None
    data: bytes


class DiscordFormError(Exception):
    """A payload Discord would reject; carries the HTTP status and the error body."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("message"))
        self.status = status
        self.body = body


def form_error(path: str, code: str, message: str) -> DiscordFormError:
    errors: dict[str, Any] = {}
    node = errors
    parts = path.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = {"_errors": [{"code": code, "message": message}]}
    return DiscordFormError(400, {"code": 50035, "message": "Invalid Form Body", "errors": errors})


def too_long(path: str, limit: int) -> DiscordFormError:
    return form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[UploadedFile]]:
    """A create or edit request's JSON payload and uploaded files (JSON or multipart)."""
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


def check_message_limits(
    payload: dict[str, Any], files: list[UploadedFile], max_file_bytes: int
) -> None:
    """Raise DiscordFormError for anything real Discord would refuse in a create or edit."""
    content = payload.get("content") or ""
    if len(content) > CONTENT_LIMIT:
        raise too_long("content", CONTENT_LIMIT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise too_long("embeds", MAX_EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        total += _check_embed(i, embed)
    if total > EMBED_TOTAL_LIMIT:
        raise form_error(
            "embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )
    if len(files) > MAX_FILES:
        raise too_long("files", MAX_FILES)
    for upload in files:
        if len(upload.data) > max_file_bytes:
            raise DiscordFormError(413, TOO_LARGE)
    _check_components(payload.get("components") or [])


def check_request_size(
    payload: dict[str, Any], files: list[UploadedFile], max_request_bytes: int
) -> None:
    """Raise 413 (40005) when a request carries more than ``max_request_bytes`` in all: its
    JSON payload and every file together, however small each file is."""
    size = len(json.dumps(payload).encode()) + sum(len(upload.data) for upload in files)
    if size > max_request_bytes:
        raise DiscordFormError(413, TOO_LARGE)


def _check_embed(i: int, embed: dict[str, Any]) -> int:
    total = 0
    for key in ("title", "description"):
        text = embed.get(key) or ""
        if len(text) > EMBED_LIMITS[key]:
            raise too_long(f"embeds.{i}.{key}", EMBED_LIMITS[key])
        total += len(text)
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > EMBED_LIMITS["footer"]:
        raise too_long(f"embeds.{i}.footer.text", EMBED_LIMITS["footer"])
    if len(author) > EMBED_LIMITS["author"]:
        raise too_long(f"embeds.{i}.author.name", EMBED_LIMITS["author"])
    total += len(footer) + len(author)
    fields_ = embed.get("fields") or []
    if len(fields_) > MAX_FIELDS:
        raise too_long(f"embeds.{i}.fields", MAX_FIELDS)
    for j, fld in enumerate(fields_):
        name, value = fld.get("name") or "", fld.get("value") or ""
        if not name or not value:
            raise form_error(f"embeds.{i}.fields.{j}", "BASE_TYPE_REQUIRED", "Required.")
        if len(name) > 256:
            raise too_long(f"embeds.{i}.fields.{j}.name", 256)
        if len(value) > 1024:
            raise too_long(f"embeds.{i}.fields.{j}.value", 1024)
        total += len(name) + len(value)
    url = embed.get("url")
    if url is not None and not str(url).startswith(("http://", "https://")):
        raise form_error(f"embeds.{i}.url", "URL_TYPE_INVALID_URL", "Not a well formed URL.")
    return total


def _check_components(rows: list[dict[str, Any]]) -> None:
    if len(rows) > 5:
        raise too_long("components", 5)
    for i, row in enumerate(rows):
        buttons = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(buttons) <= 5:
            raise form_error(f"components.{i}", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Bad row.")
        for j, button in enumerate(buttons):
            if len(button.get("label") or "") > 80:
                raise too_long(f"components.{i}.components.{j}.label", 80)
            if button.get("style") == 5 and not str(button.get("url", "")).startswith("http"):
                raise form_error(
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
