"""Input validation for the web API: bodies, questions and conversation ids.

Everything a browser (or anyone else) sends is checked here before it reaches the assistant or
the store. Bad input becomes :class:`bot.errors.ValidationError` with a reason a person can act
on, and the route turns it into a 4xx JSON ``{"error": reason}``; never a traceback.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import JSONResponse

from bot.connectors.request_body import read_capped
from bot.errors import ValidationError
from bot.store import FEEDBACK_VALUES

_CONVERSATION_ID = re.compile(r"[0-9a-f]{32}")
# C0/C1 controls except tab and newline; they have no business in a question and can hide text.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ASK_FIELDS = frozenset({"question", "conversation_id"})
# after "unknown field(s): q": what a client guessing at the API ("q", "query", "message")
# should send instead
_ASK_FIELDS_HINT = '(send "question", and "conversation_id" to continue a conversation)'
_FEEDBACK_FIELDS = frozenset({"conversation_id", "turn_id", "value"})


class RequestTooLargeError(ValidationError):
    """The request body is larger than ``web.max_body_bytes`` (answered with 413)."""


class UnsupportedMediaTypeError(ValidationError):
    """The request body is not JSON (answered with 415)."""


class UnknownConversationError(ValidationError):
    """The conversation id names no web conversation (answered with 404)."""


@dataclass(frozen=True)
class AskRequest:
    """A validated question, with the conversation it continues (None starts a new one)."""

    question: str
    conversation_id: str | None


@dataclass(frozen=True)
class FeedbackRequest:
    """A vote (one of ``bot.store.FEEDBACK_VALUES``) on one answer of a conversation."""

    conversation_id: str
    turn_id: int
    value: str


def error_response(
    reason: str, status: int, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """The one shape of every API error: ``{"error": reason}``; ``headers`` such as a busy
    backend's ``Retry-After`` (``bot.connectors.web_sse.public_headers``)."""
    return JSONResponse({"error": reason}, status_code=status, headers=headers)


def status_for(error: ValidationError) -> int:
    """The HTTP status a validation error is answered with."""
    if isinstance(error, RequestTooLargeError):
        return 413
    if isinstance(error, UnsupportedMediaTypeError):
        return 415
    if isinstance(error, UnknownConversationError):
        return 404
    return 400


def clean_question(raw: Any, max_chars: int) -> str:
    """Normalize a question (NFC, no control characters, trimmed) or explain what is wrong."""
    if not isinstance(raw, str):
        raise ValidationError("question must be a string")
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError("question is not valid Unicode") from None
    if len(raw) > max_chars * 2:
        raise ValidationError(f"question is longer than {max_chars} characters")
    question = _CONTROL.sub(" ", unicodedata.normalize("NFC", raw)).strip()
    if not question:
        raise ValidationError("question is empty")
    if len(question) > max_chars:
        raise ValidationError(f"question is longer than {max_chars} characters")
    return question


def clean_conversation_id(raw: Any) -> str | None:
    """A conversation id as issued by this server (32 hex digits), or None for a new one."""
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or not _CONVERSATION_ID.fullmatch(raw):
        raise ValidationError("conversation_id must be an id returned by this server")
    return raw


def decode_utf8(data: bytes, what: str) -> str:
    """``data`` as text, or a ValidationError naming ``what`` was not UTF-8.

    Strict: a byte sequence that is not UTF-8 (or encodes a lone surrogate) is refused, never
    replaced with U+FFFD, so what is stored is what the client meant to send.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationError(f"{what} is not UTF-8") from None


def read_query(request: Request) -> list[tuple[str, str]]:
    """The query string's ``(name, value)`` pairs, refused when it is not UTF-8.

    Starlette's ``query_params`` would quietly turn ``%ff`` into U+FFFD; the raw bytes are
    checked here instead, both as sent and after percent-decoding.
    """
    raw = decode_utf8(request.scope.get("query_string", b""), "query string")
    try:
        return parse_qsl(raw, keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise ValidationError("query string is not UTF-8") from None


async def read_json_body(request: Request, max_bytes: int, *, carrying: str) -> Any:
    """The request's JSON body, read with a hard size cap (the declared length is not trusted).

    ``carrying`` names what the body holds ("the question", "the vote"), for the 415 reason.
    """
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() != "application/json":
        raise UnsupportedMediaTypeError(f"send {carrying} as JSON (Content-Type: application/json)")
    body = await read_capped(request, max_bytes)
    if body is None:
        raise RequestTooLargeError(f"request body is larger than {max_bytes} bytes")
    text = decode_utf8(body, "request body")
    try:
        return json.loads(text, object_pairs_hook=_refuse_repeated_fields)
    except RepeatedFieldError as exc:
        raise ValidationError(str(exc)) from None
    except (json.JSONDecodeError, RecursionError):
        raise ValidationError("request body is not valid JSON") from None
    except ValueError:
        # valid JSON, but a number longer than Python's int limit (4300 digits): no field of
        # ours takes one, and letting the ValueError through made it a 500
        raise ValidationError("request body has a number too long to read") from None


class RepeatedFieldError(ValueError):
    """A JSON object names a field twice (raised inside ``json.loads``, so a ValueError)."""


def _refuse_repeated_fields(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of two same-named fields, while a proxy or WAF in front may
    # judge the first: what is checked must be what is answered (the stream's query string
    # refuses a second question the same way)
    seen: set[str] = set()
    repeated: set[str] = set()
    for key, _ in pairs:
        (repeated if key in seen else seen).add(key)
    if repeated:
        shown = ", ".join(name[:40] for name in sorted(repeated)[:5])
        raise RepeatedFieldError(f"request body repeats the field(s): {shown}; send each once")
    return dict(pairs)


def parse_ask(data: Any, max_chars: int) -> AskRequest:
    """Validate ``{question, conversation_id?}`` (a JSON body or the stream's query string)."""
    if not isinstance(data, Mapping):
        raise ValidationError('send a JSON object like {"question": "..."}')
    unknown = sorted(str(key) for key in data if key not in _ASK_FIELDS)
    if unknown:
        raise ValidationError(f"unknown field(s): {', '.join(unknown)} {_ASK_FIELDS_HINT}")
    if "question" not in data:
        raise ValidationError("question is required")
    return AskRequest(
        question=clean_question(data["question"], max_chars),
        conversation_id=clean_conversation_id(data.get("conversation_id")),
    )


def parse_feedback(data: Any) -> FeedbackRequest:
    """Validate ``{conversation_id, turn_id, value}``: a vote on an answer of that conversation."""
    if not isinstance(data, Mapping):
        raise ValidationError(
            'send a JSON object like {"conversation_id": "...", "turn_id": 3, "value": "helpful"}'
        )
    unknown = sorted(str(key) for key in data if key not in _FEEDBACK_FIELDS)
    if unknown:
        raise ValidationError(f"unknown field(s): {', '.join(unknown)}")
    conversation_id = clean_conversation_id(data.get("conversation_id"))
    if conversation_id is None:
        raise ValidationError("conversation_id is required")
    turn_id = data.get("turn_id")
    if not isinstance(turn_id, int) or isinstance(turn_id, bool) or turn_id < 1:
        raise ValidationError("turn_id must be a positive integer")
    value = data.get("value")
    if value not in FEEDBACK_VALUES:
        raise ValidationError(f"value must be one of: {', '.join(FEEDBACK_VALUES)}")
    return FeedbackRequest(conversation_id, turn_id, str(value))


def parse_ask_query(request: Request, max_chars: int) -> AskRequest:
    """Validate the stream's ``?question=…&conversation_id=…`` like a POSTed question."""
    pairs = read_query(request)
    names = [name for name, _ in pairs]
    # dict() would keep the last of two, while whatever checked the URL may have read the first
    for name in ("question", "conversation_id"):
        if names.count(name) > 1:
            raise ValidationError(f"give one {name}")
    return parse_ask(dict(pairs), max_chars)
