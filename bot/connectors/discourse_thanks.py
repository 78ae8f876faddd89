"""A post that only thanks, agrees or says goodbye is liked, not answered with a post.

"Thanks!", "Great, that worked" or "bye" under the bot's answer
(:func:`bot.pleasantries.small_talk`) ask nothing. Answered with a post, "You're welcome!"
bumps the topic for everyone watching it and, being shorter than the forum's minimum post
length, carries a note that the forum asks for longer posts (``discourse_short``): noise in a
thread people read later to find the answer. A forum's own way to take a thank-you is a like,
as Discourse itself nudges people to like rather than post "thanks": the asker sees it in
their notifications, nobody else is disturbed, and the topic reads question, answer, thanks.
So such a post is liked (``POST /post_actions.json``) and nothing is posted; the answerer is
not even asked.

A greeting ("hello @citecast") is still answered with a post: the reply says what the bot
does and invites a question, which a like cannot. ``discourse.like_small_talk: false`` answers
thanks with a post again (e.g. for an API key whose scopes leave out likes).

A like the forum refuses for good (403: the post was liked already, by an attempt whose answer
was lost, or the key may not like; 404: the post is gone) is logged and the post left alone; a
forum that is down or rate limiting is tried again by the outbox, as an answer would be.
"""

from __future__ import annotations

import logging
from typing import Final

from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_errors import DiscourseAPIError
from bot.connectors.discourse_webhook import PostEvent
from bot.pleasantries import SmallTalk, small_talk

log = logging.getLogger(__name__)

__all__ = ["LIKED", "like_post", "liked_instead"]

LIKED: Final[frozenset[SmallTalk]] = frozenset({"thanks", "acknowledgement", "goodbye"})
"""The kinds of small talk that are liked; a greeting is answered."""


def liked_instead(question: str) -> bool:
    """Whether the post asking ``question`` only thanks, agrees or says goodbye."""
    return small_talk(question) in LIKED


async def like_post(client: DiscourseClient, event: PostEvent) -> bool:
    """Like the post of ``event``: True when the forum took the like, False when it refused
    it for good (logged). A failure that may pass (the forum down, a rate limit) is raised."""
    try:
        await client.like(event.post_id)
    except DiscourseAPIError as exc:
        if not exc.permanent:
            raise
        log.warning(
            "discourse topic %s: the forum refused to like post %s, which only thanks (%s);"
            " nothing posted (if the API key may not like posts, add the scope or set"
            " discourse.like_small_talk: false)",
            event.topic_id,
            event.post_id,
            exc,
        )
        return False
    log.info(
        "discourse topic %s: post %s only thanks; liked it instead of replying",
        event.topic_id,
        event.post_id,
    )
    return True
