"""What the delivery checks just before a Discourse reply is posted (see ``discourse_delivery``).

- The topic must still be read only by the audience the reply was composed for: one moved to a
  more public category (or into a private message) takes no reply citing private sources
  (:func:`check_audience`, :class:`AudienceChangedError`).
- The question must still be one to answer: not deleted, hidden, withdrawn by its author or
  moved out of the topic (:func:`check_question`, :class:`QuestionGoneError`).

:func:`check_reply_wanted` runs them (and the topic's open state, ``discourse_topic_state``)
before a reply is sent, and again after every wait of the client's retries before it is sent
again: a topic moved public during a 429's wait took a staff-only reply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.config import DiscourseSettings
from bot.connectors.discourse_audience import PUBLIC, CategoryReaders, mapped_audience
from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_topic_state import check_open
from bot.errors import ChannelError


class AudienceChangedError(ChannelError):
    """The topic is no longer read (only) by the audience a reply was composed for."""


class QuestionGoneError(ChannelError):
    """The question was deleted, hidden, withdrawn or moved away before its reply was sent."""


def audience_for(settings: DiscourseSettings, category_id: int | None) -> frozenset[str]:
    """The groups ``audience_by_category`` maps ``category_id`` itself to (public unless
    configured); a subcategory's inherited audience needs the forum: see
    :class:`bot.connectors.discourse_audience.CategoryReaders`."""
    return mapped_audience(settings, category_id) or PUBLIC


async def check_audience(
    settings: DiscourseSettings,
    client: Callable[[], DiscourseClient],
    logged_categories: set[tuple[str, int]],
    topic_id: int,
    audience: frozenset[str],
) -> dict[str, Any]:
    """The topic, as read now; raise AudienceChangedError unless its readers may still see
    ``audience``'s sources (the topic may have moved since the reply was composed)."""
    topic = await client().topic(topic_id)
    category = topic.get("category_id")
    private = str(topic.get("archetype") or "regular") == "private_message"
    # strict: a parent category that cannot be read now is retried, not taken as public
    readers = await CategoryReaders(settings, client, logged_categories).audience(
        category if isinstance(category, int) and not private else None, strict=True
    )
    if private or not audience <= readers:
        raise AudienceChangedError(
            f"topic {topic_id} is now read by {', '.join(sorted(readers))}, not"
            f" {', '.join(sorted(audience))}: a reply citing their sources is not posted"
        )
    return topic


async def check_question(client: DiscourseClient, topic_id: int, post_id: int) -> None:
    """Raise QuestionGoneError when the question post is no longer one to answer: deleted,
    hidden, withdrawn by its author, or no longer in the topic (moved elsewhere, e.g. to a
    private message)."""
    post = await client.post_in_topic(topic_id, post_id)
    if post is None:
        state = "no longer in the topic (deleted or moved)"
    elif post.get("deleted_at"):
        state = "deleted"
    elif post.get("user_deleted"):
        state = "withdrawn by its author"
    elif post.get("hidden"):
        state = "hidden"
    else:
        return
    raise QuestionGoneError(f"topic {topic_id}: post {post_id} is {state}: not answered")


async def check_reply_wanted(
    settings: DiscourseSettings,
    client: Callable[[], DiscourseClient],
    logged_categories: set[tuple[str, int]],
    topic_id: int,
    audience: frozenset[str],
    question: int | None,
) -> None:
    """Raise unless the reply may still be posted: its topic read only by ``audience`` (a
    reply to the public needs no check), and, with ``question`` (the question post's id), the
    topic open and that post still there to answer."""
    topic: dict[str, Any] | None = None
    if audience != PUBLIC:
        topic = await check_audience(settings, client, logged_categories, topic_id, audience)
    if question is not None:
        # a staff bot may reply in a closed topic: see discourse_topic_state
        check_open(topic_id, topic or await client().topic(topic_id))
        await check_question(client(), topic_id, question)
