"""The fake forum's ``max_consecutive_replies`` rule and post edits (``PUT /posts/{id}.json``).

Discourse's ``PostValidator#force_edit_last_validator`` (lib/validators/post_validator.rb)
refuses a new post when the topic's last ``max_consecutive_replies`` posts (3 by default; not
deleted, not hidden, of any post type) are all the poster's, and the poster may edit the last
one: 422 with the base error "No more than 3 consecutive replies are allowed. Please edit your
previous reply, or wait for someone to reply to you." (``max_consecutive_replies`` in
config/locales/server.en.yml). It does not apply when the setting is 0, to an edit, to staff
(admins and moderators), in a private message, to the user who opened the topic, or to a
moderator of the topic's category (category group moderation).

An edit (``{"post": {"raw": ..., "edit_reason": ...}}``) is taken from the post's author or
staff, within ``max_post_length``; the response is ``{"post": {...}}`` as PostsController's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakes.discourse_wire import (
    NOT_FOUND,
    NOT_PERMITTED,
    FakeTopic,
    cook,
    error_response,
    post_error,
    public_post,
)

if TYPE_CHECKING:
    from tests.fakes.discourse_api import FakeDiscourse

# config/locales/server.en.yml, max_consecutive_replies (one / other)
CONSECUTIVE_ONE = (
    "No consecutive replies are allowed. Please edit your previous reply, or wait for someone"
    " to reply to you."
)
CONSECUTIVE_OTHER = (
    "No more than {count} consecutive replies are allowed. Please edit your previous reply, or"
    " wait for someone to reply to you."
)

# config/locales/server.de.yml, max_consecutive_replies (one / other): a German forum's wording,
# for a test to put in place of the English one
GERMAN_ONE = (
    "Es sind keine aufeinanderfolgenden Antworten erlaubt. Bitte bearbeite stattdessen deine"
    " letzte Antwort oder warte, bis dir jemand antwortet."
)
GERMAN_OTHER = (
    "Es sind nicht mehr als {count} aufeinanderfolgende Antworten erlaubt. Bitte bearbeite"
    " stattdessen deine letzte Antwort oder warte, bis dir jemand antwortet."
)


def consecutive_refusal(forum: FakeDiscourse, topic: FakeTopic, username: str) -> str | None:
    """The message refusing a new post by ``username`` in ``topic``, or None when allowed."""
    limit = forum.max_consecutive_replies
    if limit == 0 or username in forum.staff or topic.archetype == "private_message":
        return None
    live = [p for p in topic.posts if not p.get("deleted_at")]
    if live and live[0]["username"] == username:
        return None  # the topic's original poster (its first post still there)
    if username in forum.category_moderators.get(topic.category_id or 0, ()):
        return None
    counted = [p for p in live if not p.get("hidden")][-limit:]
    if sum(1 for p in counted if p["username"] == username) < limit:
        return None
    # only when the user may edit the topic's last post (Guardian#can_edit?: their own)
    if not live or live[-1]["username"] != username:
        return None
    return CONSECUTIVE_ONE if limit == 1 else CONSECUTIVE_OTHER.format(count=limit)


async def edit_post(forum: FakeDiscourse, request: web.Request) -> web.Response:
    """``PUT /posts/{id}.json``: replace a post's raw (its author or staff)."""
    username = request.headers["Api-Username"]
    post_id = int(request.match_info["post_id"])
    stored = next(
        (
            p
            for topic in forum.topics.values()
            for p in topic.posts
            if p["id"] == post_id and not p.get("deleted_at")
        ),
        None,
    )
    if stored is None:
        return error_response(404, [NOT_FOUND], "not_found")
    if stored["username"] != username and username not in forum.staff:
        return error_response(403, [NOT_PERMITTED], "invalid_access")
    body: dict[str, Any] = await request.json()
    given = body.get("post")
    fields: dict[str, Any] = given if isinstance(given, dict) else {}
    raw = str(fields.get("raw") or "")
    if len(raw) > forum.max_post_length:
        return post_error(forum.too_long.format(count=forum.max_post_length, length=len(raw)))
    stored["raw"] = raw
    stored["cooked"] = cook(raw)
    forum.edits.append({"id": post_id, "raw": raw, "edit_reason": fields.get("edit_reason")})
    return web.json_response({"post": public_post(stored, True)})
