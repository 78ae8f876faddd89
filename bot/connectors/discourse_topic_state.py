"""Whether a Discourse topic still takes the bot's reply: not once it is closed, archived or
deleted.

A bot user without staff rights is refused such a topic by the forum itself (422 "Perhaps this
topic was closed or deleted"). A staff or trust level 4 bot user is not: Discourse lets them
reply in a closed or archived topic, so a reply composed before a moderator closed the topic
would reopen the discussion the moderator ended. The topic is therefore read just before the
reply is posted (and before every resend), and a closed, archived or deleted one refuses it
the same way the forum refuses a bot without those rights: for good. The log says so: it was
citecast's own check that kept the reply back, not the forum (``refusal_message``).
"""

from __future__ import annotations

from typing import Any

from bot.connectors.discourse_client import DiscourseAPIError


class TopicClosedError(DiscourseAPIError):
    """The topic was closed, archived or deleted before the reply was posted (a permanent
    refusal, as the forum's own 422 for a bot user without staff rights)."""


def check_open(topic_id: int, topic: dict[str, Any]) -> None:
    """Raise TopicClosedError when ``topic`` (its ``/t/{id}.json``) takes no more replies."""
    if topic.get("deleted_at"):
        state = "deleted"
    elif topic.get("closed") is True:
        state = "closed"
    elif topic.get("archived") is True:
        state = "archived"
    else:
        return
    raise TopicClosedError(
        f"topic {topic_id} was {state} before the reply was posted; citecast does not post in"
        " a closed, archived or deleted topic, also when its user may",
        422,
        (f"topic {state}",),
    )


def refusal_message(payload: dict[str, Any], reason: str | Exception) -> str:
    """What a reply dropped for good says: whose decision it was (citecast's own check of the
    topic, or the forum), the post it answered, and why."""
    who = (
        "citecast refused to post" if isinstance(reason, TopicClosedError) else "the forum refused"
    )
    return (
        f"topic {payload.get('topic_id')}: {who} the reply to post"
        f" #{payload.get('reply_to_post_number')} ({reason}); not retried"
    )
