"""Whether a Discourse reply already landed (an earlier attempt whose response was lost).

Looking for it reads the posts that follow the question, a page of 20 at a time and at most
``MAX_RECHECK_POSTS`` of them, stopping at the reply: in a busy topic the reply may be far from
the topic's end. When that many posts follow the question, the bot's own last posts in the
topic are read too (Discourse's filter by user), so a reply that landed further on is found as
well.

A later part is never taken for an earlier part of its answer: the bot's first reply to the
question is the answer's first part, so a part after it is never found there, and an answer's
parts are told apart when composed (:func:`told_apart`), so no two of them read the same.
"""

from __future__ import annotations

import logging
import re
from contextlib import aclosing
from typing import Any

from bot.connectors.discourse_client import DiscourseClient

log = logging.getLogger(__name__)

# How far past the question a landed reply is looked for page by page: 25 pages of the topic.
# Past that (a busy topic, a resend hours later) the bot's own last posts in the topic are read
# instead, as many again.
MAX_RECHECK_POSTS = 500
# what tells a part from an earlier one of its answer that reads the same (Discourse shows no
# HTML comment, and does not count one toward a post's length)
PART_MARK = "<!-- part {part} -->"


async def already_posted(
    client: DiscourseClient,
    bot_username: str,
    topic_id: int,
    post_number: int,
    bodies: tuple[str, ...],
    part: int,
) -> bool:
    """True when the topic already holds this reply, with or without the unique suffix (an
    earlier attempt whose answer got lost).

    Reads the posts after the question (the reply cannot be before it), stopping once it is
    found or after ``MAX_RECHECK_POSTS``; in a topic busier than that, looks further among
    the bot's own posts in the topic (one filtered read, whatever the topic's length).
    Compares bodies when the forum sends them, else counts the bot's replies to the post.
    """
    bot = bot_username.lower()
    wanted = {_squash(body) for body in bodies}
    ours: list[dict[str, Any]] = []
    seen: set[object] = set()
    read = 0

    def found_in(posts: list[dict[str, Any]]) -> bool:
        """Whether ``posts`` hold the reply; the bot's other replies to the post go to ``ours``."""
        for post in posts:
            seen.add(post.get("id"))
            if (
                str(post.get("username") or "").lower() != bot
                or post.get("reply_to_post_number") != post_number
            ):
                continue
            raw = post.get("raw")
            # the bot's first reply to the question is the answer's first part: a later part
            # that reads the same (a repeated sentence) has not landed because part 1 did
            first = not ours and part > 1
            if isinstance(raw, str) and _squash(raw) in wanted and not first:
                return True
            ours.append(post)
        return False

    async with aclosing(client.posts_after(topic_id, post_number)) as pages:
        async for page in pages:
            if found_in(page):
                return True
            read += len(page)
            if read >= MAX_RECHECK_POSTS:
                break
    if read >= MAX_RECHECK_POSTS:
        # The reply may lie past the posts read: a busy topic, or a resend long after
        # the question (a rate limit, a restart).
        if found_in(await _bot_posts_after(client, bot_username, topic_id, post_number, seen)):
            return True
        log.warning(
            "discourse topic %s: no reply to #%s in the %d posts after it nor among the"
            " bot's posts; sending it",
            topic_id,
            post_number,
            read,
        )
    if ours and all(isinstance(p.get("raw"), str) for p in ours):
        return False
    return len(ours) >= part


async def _bot_posts_after(
    client: DiscourseClient, bot_username: str, topic_id: int, post_number: int, seen: set[object]
) -> list[dict[str, Any]]:
    """The bot's last ``MAX_RECHECK_POSTS`` posts in the topic after ``post_number`` that
    are not in ``seen`` (read through Discourse's filter by user)."""
    _, posts = await client.recent_posts(topic_id, MAX_RECHECK_POSTS, username=bot_username)
    return [
        post
        for post in posts
        if post.get("id") not in seen
        and isinstance(post.get("post_number"), int)
        and post["post_number"] > post_number
    ]


def told_apart(raws: list[str], limit: int) -> list[str]:
    """An answer's posts, each one that reads the same as an earlier one (whitespace aside)
    marked with an invisible comment naming its part, where that fits ``limit``: the forum
    refuses the same body twice within its duplicate window, and the check for a lost response
    would take the earlier part for it."""
    seen: set[str] = set()
    parts: list[str] = []
    for part, raw in enumerate(raws, start=1):
        marked = f"{raw}\n\n{PART_MARK.format(part=part)}"
        if _squash(raw) in seen and len(marked) <= limit:
            raw = marked
        seen.add(_squash(raw))
        parts.append(raw)
    return parts


def _squash(text: str) -> str:
    # Discourse compares bodies with whitespace removed.
    return re.sub(r"\s+", "", text)
