"""Discourse webhooks: the signature check, the ``post_created`` event, and when to answer.

Discourse signs each delivery with ``X-Discourse-Event-Signature: sha256=<hex>``, the HMAC-SHA256
of the raw request body keyed with the webhook's secret. Nothing here does I/O.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from bot.config import DiscourseSettings
from bot.errors import SignatureError, ValidationError
from bot.knowledge.document import code_spans
from bot.lenient_html import LenientHTMLParser

Trigger = Literal["new_topic", "mention", "reply"]

_SIGNATURE_PREFIX = "sha256="


def verify_signature(secret: str, body: bytes, header: str | None) -> None:
    """Raise SignatureError unless ``header`` is the body's HMAC-SHA256 under ``secret``."""
    if not secret:
        raise SignatureError("discourse.webhook_secret is not set; refusing unsigned webhooks")
    if not header:
        raise SignatureError("missing X-Discourse-Event-Signature header")
    if not header.startswith(_SIGNATURE_PREFIX):
        raise SignatureError("X-Discourse-Event-Signature must start with 'sha256='")
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest().encode()
    given = header[len(_SIGNATURE_PREFIX) :].strip().lower().encode("utf-8", "replace")
    # bytes, not str: compare_digest refuses a str with non-ASCII characters (a TypeError, so a
    # 500 for any sender who puts one in the header)
    if not hmac.compare_digest(expected, given):
        raise SignatureError("X-Discourse-Event-Signature does not match the body")


@dataclass(frozen=True)
class PostEvent:
    """The fields of a ``post_created`` delivery that decide whether and how to answer."""

    post_id: int
    topic_id: int
    post_number: int
    username: str
    raw: str
    category_id: int | None = None
    topic_title: str = ""
    reply_to_post_number: int | None = None
    reply_to_username: str | None = None
    topic_archetype: str = "regular"
    post_type: int = 1
    user_id: int | None = None


def parse_post_event(body: bytes) -> PostEvent:
    """Parse a ``post_created`` webhook body; raises ValidationError with the reason."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ValidationError("webhook body is not JSON") from None
    post = data.get("post") if isinstance(data, dict) else None
    if not isinstance(post, dict):
        raise ValidationError("webhook body has no 'post' object")
    reply_user = post.get("reply_to_user")
    raw = post.get("raw")
    if not isinstance(raw, str) or not raw.strip():
        raw = html_to_text(str(post.get("cooked") or ""))
    return PostEvent(
        post_id=_int(post, "id"),
        topic_id=_int(post, "topic_id"),
        post_number=_int(post, "post_number"),
        username=str(post.get("username") or ""),
        raw=raw,
        category_id=_optional_int(post.get("category_id")),
        topic_title=str(post.get("topic_title") or ""),
        reply_to_post_number=_optional_int(post.get("reply_to_post_number")),
        reply_to_username=(
            str(reply_user["username"])
            if isinstance(reply_user, dict) and reply_user.get("username")
            else None
        ),
        topic_archetype=str(post.get("topic_archetype") or "regular"),
        post_type=_optional_int(post.get("post_type")) or 1,
        user_id=_signed_int(post.get("user_id")),
    )


# Where a mention of the name ends, as Discourse reads it: its pattern takes the longest run of
# letters, digits, "_", "." and "-" that ends in a letter or digit, so "@citecast.bot" names the
# user citecast.bot while "@citecast." (the end of a sentence) names citecast.
_NAME_ENDS = r"(?![\w.\-]*[^\W_])"


def mentions(text: str, username: str) -> bool:
    """True when ``text`` mentions ``@username`` (case-insensitive, whole name only)."""
    pattern = rf"(?<![\w@])@{re.escape(username)}{_NAME_ENDS}"
    return re.search(pattern, text, flags=re.IGNORECASE) is not None


def trigger_for(event: PostEvent, settings: DiscourseSettings) -> Trigger | None:
    """Why the bot should answer ``event``, or None when it must stay quiet.

    Never its own posts, never Discourse's built-in bot users (``system``, ``discobot`` and
    plugin bots: user ids of 0 and below) nor the users in ``ignore_users`` (other bots), never
    outside the listed categories (private messages have none), never whispers or moderator
    actions (post_type other than 1).
    """
    quiet = {settings.api_username.lower(), *(name.lower() for name in settings.ignore_users)}
    if event.username.lower() in quiet or event.post_type != 1:
        return None
    if event.user_id is not None and event.user_id <= 0:
        return None
    if event.topic_archetype == "private_message":
        return None
    if event.category_id is None or event.category_id not in settings.categories:
        return None
    if settings.answer_new_topics and event.post_number == 1:
        return "new_topic"
    # A mention inside a [quote] is someone else's earlier post (Discourse notifies nobody
    # for it): quoting a question to the bot is not asking it again. Nor is one inside code or
    # an HTML comment.
    if settings.answer_mentions and mentions(mention_text(event.raw), settings.api_username):
        return "mention"
    if settings.answer_replies and replies_to(event, settings.api_username):
        return "reply"
    return None


def replies_to(event: PostEvent, username: str) -> bool:
    """True when ``event`` is a reply to a post by ``username``.

    Discourse leaves ``reply_to_user`` out of the post JSON when the reply quotes the post it
    answers (``suppress_reply_when_quoting``, on by default): then the quote's header names
    the author of post ``reply_to_post_number``.
    """
    if event.reply_to_username is not None:
        return event.reply_to_username.lower() == username.lower()
    if event.reply_to_post_number is None:
        return False
    return any(
        quote.topic in (None, event.topic_id)
        and quote.post_number == event.reply_to_post_number
        and quote.username.lower() == username.lower()
        for quote in quoted_posts(event.raw)
    )


@dataclass(frozen=True)
class QuotedPost:
    """Who and what a ``[quote="name, post:N, topic:T"]`` header quotes."""

    username: str
    post_number: int | None
    topic: int | None


_QUOTE_HEADER = re.compile(r'\[quote="?([^"\]]*)"?\]', re.IGNORECASE)


def quoted_posts(text: str) -> list[QuotedPost]:
    """The posts ``text`` quotes, from their ``[quote=…]`` headers.

    The header is ``"username, post:N, topic:T"``, or ``"Full Name, post:N, topic:T,
    username:name"`` on forums that show full names.
    """
    quotes: list[QuotedPost] = []
    for match in _QUOTE_HEADER.finditer(text):
        parts = [part.strip() for part in match.group(1).split(",")]
        fields = dict(part.split(":", 1) for part in parts[1:] if ":" in part)
        username = fields.get("username", parts[0]).strip()
        quotes.append(
            QuotedPost(
                username,
                _optional_int(fields.get("post", "").strip()),
                _optional_int(fields.get("topic", "").strip()),
            )
        )
    return quotes


_QUOTE_BLOCK = re.compile(r"\[quote(?:=[^\]]*)?\].*?\[/quote\]\s*", re.IGNORECASE | re.DOTALL)


def strip_quotes(text: str) -> str:
    """``text`` without its ``[quote]…[/quote]`` blocks: what the poster wrote themselves."""
    return _QUOTE_BLOCK.sub("", text)


_FENCED_CODE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?(?:^ {0,3}\1[`~]*[ \t]*$|\Z)", re.M | re.S)


def strip_code(text: str) -> str:
    """``text`` without fenced code blocks and code spans, where Discourse makes no mentions.
    Code spans are CommonMark's, as Discourse reads them: a backtick escaped with a backslash
    opens none."""
    pieces = code_spans(_FENCED_CODE.sub("", text))
    return "".join(" " if is_code else piece for is_code, piece in pieces)


# CommonMark's HTML comment: Discourse drops it from the cooked post, and notifies nobody
# mentioned in it.
def strip_html_comments(text: str) -> str:
    """``text`` without its ``<!-- … -->`` comments, which the forum never shows.

    One pass: a lazy ``<!--.*?-->`` pattern searched to the end of the post from every opener
    that never closes (a post of repeated ``<!--``: 1 s at 32,000 characters, on the event
    loop); an opener with no close after it means none after it closes either."""
    pieces: list[str] = []
    start = 0
    while (opened := text.find("<!--", start)) >= 0:
        closed = text.find("-->", opened + 4)
        if closed < 0:
            break
        pieces += (text[start:opened], " ")
        start = closed + 3
    return "".join(pieces) + text[start:] if pieces else text


def mention_text(raw: str) -> str:
    """The part of a post's ``raw`` where Discourse makes mentions: no ``[quote]`` blocks, no
    code, no HTML comments."""
    return strip_html_comments(strip_code(strip_quotes(raw)))


def asks_nothing(text: str, username: str) -> bool:
    """True when ``text`` holds no word besides the mention of ``@username`` (and quotes):
    "@citecast" or "@citecast ?" asks nothing to search for."""
    return re.search(r"\w", strip_mention(text, username)) is None


def strip_mention(text: str, username: str) -> str:
    """The post text as a question: no ``@username`` mentions, no ``[quote]`` blocks (quoted
    posts are already part of the topic history)."""
    text = strip_quotes(text)
    pattern = rf"(?<![\w@])@{re.escape(username)}{_NAME_ENDS}[,:]?\s*"
    return re.sub(pattern, "", text, flags=re.IGNORECASE).strip()


class _TextExtractor(LenientHTMLParser):
    _BLOCKS = frozenset({"p", "br", "li", "div", "pre", "blockquote", "h1", "h2", "h3", "tr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_to_text(html: str) -> str:
    """Plain text of a cooked Discourse post (used when the raw markdown is not available)."""
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    text = "".join(extractor.parts)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _int(post: dict[str, Any], key: str) -> int:
    value = _optional_int(post.get(key))
    if value is None:
        raise ValidationError(f"webhook post has no integer '{key}'")
    return value


def _signed_int(value: Any) -> int | None:
    # the user ids of Discourse's own bots are negative (system is -1)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _optional_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None
