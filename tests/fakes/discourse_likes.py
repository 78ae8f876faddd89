"""The fake Discourse forum's ``POST /post_actions.json``: likes, refused as the real forum does.

:class:`ForumLikes` is the part of :class:`tests.fakes.discourse_api.FakeDiscourse` that takes
likes (``post_action_type_id`` 2, the only action modelled), as ``PostActionsController#create``
and ``Guardian#post_can_act?`` do:

- ``id`` and ``post_action_type_id`` are required (400 ``invalid_parameters``, Rails'
  "param is missing or the value is empty");
- a post that does not exist, was deleted (for non-staff) or sits in a deleted topic or one
  the user may not see is 404 ``not_found``;
- liking one's own post, a post one already liked, or a post in an archived topic is 403
  ``invalid_access``;
- an accepted like answers the post's JSON with its ``actions_summary`` and is recorded in
  ``likes`` (post id -> the users who liked it); ``fail(..., after_accept=True)`` loses the
  answer of a like that was taken.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from aiohttp import web

from tests.fakes.discourse_wire import (
    NOT_FOUND,
    NOT_PERMITTED,
    FakeTopic,
    Injected,
    answer_injected,
    error_response,
    request_form,
)

LIKE = 2


class ForumLikes:
    """Likes' side of the fake forum (state lives in FakeDiscourse)."""

    topics: dict[int, FakeTopic]
    staff: set[str]
    hidden_categories: set[int]
    likes: dict[int, set[str]]
    _injected: dict[str, deque[Injected]]

    def _check(self, request: web.Request) -> web.Response | None:
        raise NotImplementedError  # FakeDiscourse's: the key, and injected answers

    async def _post_action(self, request: web.Request) -> web.Response:
        denied = self._check(request)
        if denied is not None:
            return denied
        username = request.headers["Api-Username"]
        form = await request_form(request)
        for name in ("id", "post_action_type_id"):
            if form.get(name) in (None, ""):
                message = f"param is missing or the value is empty: {name}"
                return error_response(400, [message], "invalid_parameters")
        try:
            post_id, action = int(form["id"]), int(form["post_action_type_id"])
        except (TypeError, ValueError):
            return error_response(400, ["id must be a number"], "invalid_parameters")
        if action != LIKE:
            return error_response(400, ["the fake forum takes likes only"], "invalid_parameters")
        found = self._post_for(post_id, username)
        if found is None:
            return error_response(404, [NOT_FOUND], "not_found")
        topic, post = found
        likers = self.likes.get(post_id, set())
        if post["username"] == username or username in likers or topic.archived:
            return error_response(403, [NOT_PERMITTED], "invalid_access")
        likers = self.likes[post_id] = likers | {username}
        injected = self._injected.get(request.path)
        if injected and injected[0].after_accept:
            return answer_injected(request, injected.popleft())  # liked, its answer lost
        summary = [{"id": LIKE, "count": len(likers), "acted": True, "can_undo": True}]
        return web.json_response({**post, "actions_summary": summary})

    def _post_for(self, post_id: int, username: str) -> tuple[FakeTopic, dict[str, Any]] | None:
        """The post and its topic as ``username`` may see them, else None."""
        staff = username in self.staff
        for topic in self.topics.values():
            for post in topic.posts:
                if post["id"] != post_id:
                    continue
                hidden = topic.category_id in self.hidden_categories
                if (topic.deleted or post.get("deleted_at") or hidden) and not staff:
                    return None
                return topic, post
        return None
