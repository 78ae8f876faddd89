"""Why a webhook delivery was not answered (or was refused), in words an admin can act on.

Discourse keeps each webhook delivery with its response (Admin > API > Webhooks > the webhook >
its events). Every ignored post used to answer ``"ignored": "no trigger"``; the response now also
carries ``"reason"``: the check of :func:`bot.connectors.discourse_webhook.trigger_for` that kept
the bot quiet, so "why did it not answer?" is answered there (and in the DEBUG log). A body
that cannot be read (most often a webhook left at Discourse's other content type,
``application/x-www-form-urlencoded``) gets a 400 saying what to change, and a WARNING.
"""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import JSONResponse

from bot.config_channels import DiscourseSettings
from bot.connectors.discourse_webhook import (
    PostEvent,
    mention_text,
    mentions,
    replies_to,
)

log = logging.getLogger(__name__)

JSON_HINT = "set the webhook's Content Type to application/json"


def refused_body(request: Request, exc: Exception) -> JSONResponse:
    """The 400 for a body that is no post event: logged, and saying how to fix the webhook
    when it was sent as a form rather than as JSON."""
    content_type = request.headers.get("Content-Type", "")
    message = str(exc)
    if "json" not in content_type.lower():
        message = f"{message} (sent as {content_type or 'no content type'}): {JSON_HINT}"
    log.warning("discourse webhook refused: %s", message)
    return JSONResponse({"error": message}, status_code=400)


def ignored_because(event: PostEvent, settings: DiscourseSettings) -> str:
    """Why ``trigger_for`` gives no trigger for ``event`` (call it only then), checked in the
    same order."""
    username = event.username.lower()
    if username == settings.api_username.lower():
        return "the bot's own post"
    if username in {name.lower() for name in settings.ignore_users}:
        return f"{event.username} is in discourse.ignore_users"
    if event.post_type != 1:
        kind = {2: "a moderator action", 3: "a small action", 4: "a whisper"}
        return f"{kind.get(event.post_type, 'not a regular post')} (post_type {event.post_type})"
    if event.user_id is not None and event.user_id <= 0:
        return f"a post by the built-in user {event.username or event.user_id}"
    if event.topic_archetype == "private_message":
        return "a private message"
    if event.category_id is None:
        return "the post has no category"
    if event.category_id not in settings.categories:
        return f"category {event.category_id} is not in discourse.categories"
    name = settings.api_username
    if mentions(event.raw, name):
        if not settings.answer_mentions:
            return "mentions are not answered (discourse.answer_mentions: false)"
        if not mentions(mention_text(event.raw), name):
            return f"@{name} is mentioned only inside a quote, code or an HTML comment"
    if event.post_number == 1:
        return "new topics are not answered (discourse.answer_new_topics: false)"
    if not settings.answer_replies and replies_to(event, name):
        return "replies are not answered (discourse.answer_replies: false)"
    return f"not a new topic, a mention of @{name} or a reply to one of its posts"
