"""A Discourse topic's earlier posts as conversation history for the assistant.

Consecutive posts by people become one question (each line prefixed with the author, so the
assistant can tell speakers apart); the bot's next post is the answer to it. People's posts
that the bot never answered still count as context, with an empty answer.

Only what every reader of the topic sees is history: whispers (which the bot reads when its
user is staff), moderator notes and small actions (``post_type`` other than 1), hidden
(flagged) posts and deleted ones are left out, so an answer never repeats them in public.
So is a reply of the bot's whose stored answer the topic's readers may no longer see, with the
question it answered (``left_out``, see ``discourse_topic_answers``).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from dataclasses import replace
from typing import Any

from bot.connectors.discourse_webhook import html_to_text
from bot.models import Exchange


def post_text(post: Mapping[str, Any]) -> str:
    """A post's markdown when the forum sent it, else the text of its cooked HTML."""
    raw = post.get("raw")
    if isinstance(raw, str) and raw.strip():
        return raw.strip()
    return html_to_text(str(post.get("cooked") or ""))


def visible_to_all(post: Mapping[str, Any]) -> bool:
    """True for a regular post that is neither hidden nor deleted."""
    post_type = post.get("post_type", 1)
    return (
        (post_type is None or post_type == 1)
        and not post.get("hidden")
        and not post.get("deleted_at")
        and not post.get("user_deleted")
    )


def history_from_posts(
    posts: Iterable[Mapping[str, Any]],
    bot_username: str,
    before_post_number: int,
    topic_title: str = "",
    left_out: Container[int] = frozenset(),
) -> list[Exchange]:
    """Exchanges from the posts numbered below ``before_post_number``, oldest first; a reply
    of the bot's numbered in ``left_out`` is no exchange, nor are the people's posts since the
    bot's reply before it (the question it answered).

    Bot posts in a row are one answer (a long reply is posted in parts, and two questions
    asked together get their replies one after the other): one exchange, not one with an empty
    question per post. A part after one left out is left out with it."""
    bot = bot_username.lower()
    exchanges: list[Exchange] = []
    pending: list[str] = []
    after_bot: bool | None = None  # after a post of the bot's: whether it was kept
    for post in sorted(posts, key=lambda p: int(p.get("post_number") or 0)):
        number = int(post.get("post_number") or 0)
        if number <= 0 or number >= before_post_number or not visible_to_all(post):
            continue
        text = post_text(post)
        if not text:
            continue
        if str(post.get("username") or "").lower() == bot:
            continues = not pending and after_bot is not None
            if number in left_out or (continues and not after_bot):
                after_bot = False
            elif continues:
                exchanges[-1] = replace(exchanges[-1], answer=f"{exchanges[-1].answer}\n\n{text}")
                after_bot = True
            else:
                exchanges.append(Exchange(question="\n\n".join(pending), answer=text))
                after_bot = True
            pending = []
            continue
        after_bot = None
        if number == 1 and topic_title:
            text = f"{topic_title}\n\n{text}"
        pending.append(f"@{post.get('username') or 'someone'}: {text}")
    if pending:
        exchanges.append(Exchange(question="\n\n".join(pending), answer=""))
    return exchanges
