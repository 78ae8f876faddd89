"""The text bodies of an inbound mail: which parts are read, and how they are decoded.

Only the mail's own inline ``text/plain`` and ``text/html`` parts are read (never an attached
file or an attached mail), the first of each, and of each at most ``MAX_TEXT_BYTES``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from email.utils import collapse_rfc2231_value

from bot.connectors.email_charsets import decode_bytes

MAX_TEXT_BYTES = 1_000_000
"""A text part larger than this is cut before it is decoded (questions are short)."""


def leaf_parts(part: Message, top: bool = True) -> Iterator[Message]:
    """The non-multipart parts of the mail's own body: never inside an attached message
    (a forwarded mail's text is not the sender's question)."""
    if not top and part.get_content_maintype() == "message":
        return
    if part.is_multipart():
        for sub in part.get_payload():
            if isinstance(sub, Message):
                yield from leaf_parts(sub, top=False)
    else:
        yield part


@dataclass(frozen=True)
class TextFormat:
    """The ``format``/``delsp`` parameters of a text/plain part (RFC 3676)."""

    flowed: bool = False
    delsp: bool = False


def text_format(part: Message) -> TextFormat:
    """``format=flowed`` and ``DelSp=yes`` of ``part`` (case-insensitive; anything else, fixed)."""
    return TextFormat(
        flowed=_param(part, "format") == "flowed", delsp=_param(part, "delsp") == "yes"
    )


def _param(part: Message, name: str) -> str:
    try:
        value = part.get_param(name)
    except Exception:  # a defective Content-Type header: no parameters
        return ""
    if value is None:
        return ""
    if isinstance(value, tuple):
        value = collapse_rfc2231_value(value)
    return str(value).strip().lower()


def inline_text_parts(msg: Message) -> Iterator[Message]:
    """The body's inline ``text/plain`` and ``text/html`` parts, in order (attachments are
    skipped: parts marked so, parts with a file name, attached messages)."""
    for part in leaf_parts(msg):
        disposition = (part.get("content-disposition") or "").split(";")[0].strip().lower()
        if disposition == "attachment" or part.get_filename():
            continue
        if part.get_content_type() in ("text/plain", "text/html"):
            yield part


def bodies(msg: Message) -> tuple[str | None, str | None, TextFormat]:
    """The first inline text/plain and (non-empty) text/html parts, decoded, and the text
    part's format."""
    text: str | None = None
    html: str | None = None
    plain_format = TextFormat()
    for part in inline_text_parts(msg):
        ctype = part.get_content_type()
        if (ctype == "text/plain" and text is not None) or (ctype == "text/html" and html):
            continue
        decoded = _decode_part(part)
        if ctype == "text/plain":
            text = decoded
            plain_format = text_format(part)
        else:
            html = decoded
    if text is not None and html and is_placeholder(text):
        text = None  # the HTML part holds the mail: its text part only says to read that
    return text, html, plain_format


# A text part that only asks for the HTML one ("This is a multi-part message in MIME format",
# "Please use an HTML compatible email viewer", "Your email client does not support HTML"):
# newsletters and CRMs send one beside the real HTML body, and it was asked as the question.
_PLACEHOLDER = re.compile(
    r"\b(?:html|mime)\b.{0,80}?\b(?:viewer|client|reader|program|compatible|capable|enabled|"
    r"format|version)\b|\b(?:viewer|client|reader|program)\b.{0,80}?\bhtml\b",
    re.IGNORECASE | re.DOTALL,
)
_PLACEHOLDER_CHARS = 400  # a longer text part says more than that


def is_placeholder(text: str) -> bool:
    """Whether a text/plain part only points at the mail's HTML part."""
    shown = " ".join(text.split())
    return 0 < len(shown) <= _PLACEHOLDER_CHARS and _PLACEHOLDER.search(shown) is not None


def _decode_part(part: Message) -> str:
    payload = part.get_payload()
    if isinstance(payload, str) and len(payload) > MAX_TEXT_BYTES * 2:
        part = _truncated(part, payload)
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if not isinstance(data, bytes):
        raw = part.get_payload()
        return raw if isinstance(raw, str) else ""
    try:
        charset = part.get_content_charset()
    except Exception:
        charset = None
    return decode_bytes(data[:MAX_TEXT_BYTES], charset)


def _truncated(part: Message, payload: str) -> Message:
    copy = Message()
    for key, value in part.items():
        copy[key] = value
    copy.set_payload(payload[: MAX_TEXT_BYTES * 2])
    return copy
