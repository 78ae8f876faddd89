"""What the fake Discourse forum writes on the wire: post and error JSON, upload short URLs,
and webhook deliveries signed as Discourse signs them (see ``tests.fakes.discourse_api``)."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

NOT_PERMITTED = "You are not permitted to view the requested resource."
NOT_FOUND = "The requested URL or resource could not be found."
# PostCreator's refusal of a reply to a topic the user may not post in (closed, archived,
# deleted, or in a category it may only read): a 422, not a 403 or 404
TOPIC_NOT_FOUND = (
    "Something went wrong. Perhaps this topic was closed or deleted while you were looking at it?"
)
TOO_SIMILAR = "Body is too similar to what you recently posted"
# "Body" + server.en.yml's errors.messages.too_long_validation, as Discourse words max_post_length
TOO_LONG = "Body is limited to {count} characters; you entered {length}."
# "Body" + server.en.yml's errors.messages.too_short, as Discourse words min_post_length
TOO_SHORT = "Body is too short (minimum is {count} characters)"
BASE62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class FakeTopic:
    """A topic: its title, category and posts (each a dict shaped like Discourse's post JSON)."""

    id: int
    title: str
    category_id: int | None
    archetype: str = "regular"
    posts: list[dict[str, Any]] = field(default_factory=list)
    # post numbers are never reused, also once a post is moved away
    highest_post_number: int = 0
    closed: bool = False
    archived: bool = False
    deleted: bool = False


@dataclass(frozen=True)
class RecordedUpload:
    """One accepted upload."""

    id: int
    filename: str
    data: bytes
    short_url: str
    username: str


@dataclass(frozen=True)
class Injected:
    """An answer a test injected for the next requests to a path."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    after_accept: bool = False
    # only requests whose query string has this parameter (None: every request to the path)
    param: str | None = None

    def applies(self, request: web.Request) -> bool:
        return self.param is None or self.param in request.query


def webhook_request(
    post: dict[str, Any], secret: str, *, event: str = "post_created", event_id: int = 1
) -> tuple[bytes, dict[str, str]]:
    """The body and headers Discourse sends for a post event, signed with ``secret``."""
    return signed_delivery({"post": post}, secret, event=event, event_id=event_id)


def signed_delivery(
    payload: dict[str, Any],
    secret: str,
    *,
    event: str,
    event_type: str = "post",
    event_id: int = 1,
) -> tuple[bytes, dict[str, str]]:
    """Any webhook delivery (``{"ping": "OK"}`` for a ping), signed as Discourse signs it."""
    body = json.dumps(payload, ensure_ascii=False).encode()
    signature = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    headers = {
        "Content-Type": "application/json",
        "X-Discourse-Instance": "http://forum.example",
        "X-Discourse-Event-Id": str(event_id),
        "X-Discourse-Event-Type": event_type,
        "X-Discourse-Event": event,
        "X-Discourse-Event-Signature": f"sha256={signature}",
    }
    return body, headers


def answer_injected(request: web.Request, item: Injected) -> web.Response:
    """The injected answer (status 0: the connection drops with no answer)."""
    if item.status == 0 and request.transport is not None:
        request.transport.close()  # no answer at all: the connection drops
    return web.json_response(item.body, status=item.status or 502, headers=item.headers)


def now() -> str:
    """A timestamp as Discourse writes one."""
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())


def public_post(post: dict[str, Any], include_raw: bool) -> dict[str, Any]:
    """A post as a topic read serves it."""
    # Topic reads serve cooked HTML; raw only when asked for, as on the real forum.
    return {k: v for k, v in post.items() if include_raw or k != "raw"}


def cook(raw: str) -> str:
    """A crude ``cooked`` HTML of ``raw`` (paragraphs, escaped)."""
    escaped = raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "".join(f"<p>{part}</p>" for part in escaped.split("\n\n") if part.strip())


def base62(number: int) -> str:
    """``number`` in base 62, as upload short URLs write it."""
    digits = []
    while number:
        number, rest = divmod(number, 62)
        digits.append(BASE62[rest])
    return "".join(reversed(digits)) or "0"


async def request_form(request: web.Request) -> dict[str, Any]:
    """The fields of a POST or PUT, sent as JSON or as a form (Discourse takes both)."""
    if request.content_type == "application/json":
        form: dict[str, Any] = await request.json()
        return form
    return dict(await request.post())


def error_response(status: int, errors: list[str], error_type: str | None) -> web.Response:
    """An API error as Discourse answers one."""
    body: dict[str, Any] = {"errors": errors}
    if error_type is not None:
        body["error_type"] = error_type
    return web.json_response(body, status=status)


def counted_length(raw: str) -> int:
    """A post's length as Discourse's StrippedLengthValidator counts it for min_post_length:
    HTML comments removed, an ":emoji:", a run of dots or a run of commas one character,
    whitespace stripped; with Ruby's regexps ("." stops at a line break, \\w is ASCII) and
    String#strip (ASCII whitespace and NUL)."""
    text = re.sub(r"<!--(.*?)-->", "", raw)
    text = re.sub(r":\w+(:\w+)?:", "X", text, flags=re.ASCII)
    text = re.sub(r"\,{2,}", ",", re.sub(r"\.{2,}", "…", text))
    return len(text.strip(" \t\n\v\f\r\0"))


def post_error(message: str) -> web.Response:
    return web.json_response({"action": "create_post", "errors": [message]}, status=422)
