"""What tests do to the fake Discourse forum besides HTTP: users post, moderators act, and the
forum is told to fail.

:class:`ForumScripting` is the half of :class:`tests.fakes.discourse_api.FakeDiscourse` that a
test calls directly; the other half answers the connector's requests. Users open topics and
reply (:meth:`ForumScripting.new_topic`, :meth:`ForumScripting.user_posts`); moderators delete,
hide, move, close, archive (their methods below); :meth:`ForumScripting.rate_limit` and
:meth:`ForumScripting.fail` make the next requests to a path answer 429 or any status.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any

from tests.fakes.discourse_wire import FakeTopic, Injected, cook, now


class ForumScripting:
    """Users', moderators' and failures' side of the fake forum (state lives in FakeDiscourse)."""

    topics: dict[int, FakeTopic]
    user_ids: dict[str, int]
    suppress_reply_when_quoting: bool
    _injected: dict[str, deque[Injected]]
    _next_post_id: int

    def rate_limit(self, path: str, wait_seconds: int = 1, times: int = 1) -> None:
        """The next ``times`` requests to ``path`` answer 429 as Discourse's rate limiter does."""
        body = {
            "errors": [
                "You’ve performed this action too many times. Please wait "
                f"{wait_seconds} seconds before trying again."
            ],
            "error_type": "rate_limit",
            "extras": {"wait_seconds": wait_seconds, "time_left": f"{wait_seconds} seconds"},
        }
        for _ in range(times):
            self._injected[path].append(Injected(429, body, {"Retry-After": str(wait_seconds)}))

    def fail(
        self,
        path: str,
        status: int = 502,
        times: int = 1,
        after_accept: bool = False,
        param: str | None = None,
        body: dict[str, Any] | None = None,
    ) -> None:
        """The next ``times`` requests to ``path`` answer ``status`` with an error body
        (``body``, else a generic server error's).

        With ``after_accept`` the request is carried out first and only its response is lost,
        as when a proxy times out after the forum saved the post. ``status`` 0 answers nothing
        at all: the connection is closed (the client sees it dropped mid-request). With
        ``param`` only requests whose query string has that parameter fail (e.g.
        ``post_number``: the page reads of ``/t/{id}/posts.json``, not those by ``post_ids[]``).
        """
        body = body or {"errors": ["Something went wrong."], "error_type": "server_error"}
        for _ in range(times):
            self._injected[path].append(Injected(status, body, {}, after_accept, param))

    def new_topic(
        self, title: str, raw: str, *, category_id: int | None, username: str = "alice"
    ) -> dict[str, Any]:
        """A user opens a topic; returns its first post (Discourse's post JSON)."""
        topic_id = max(self.topics, default=100) + 1
        self.topics[topic_id] = FakeTopic(topic_id, title, category_id)
        return self._add_post(topic_id, raw, username, None)

    def user_posts(
        self,
        topic_id: int,
        raw: str,
        *,
        username: str = "alice",
        reply_to: int | None = None,
        **overrides: Any,
    ) -> dict[str, Any]:
        """A user replies in a topic (optionally to post number ``reply_to``); returns the post.

        ``overrides`` set other post fields, e.g. ``post_type=4`` for a whisper, ``hidden=True``.
        """
        post = self._add_post(topic_id, raw, username, reply_to)
        post.update(overrides)
        return post

    def delete_post(self, post: dict[str, Any]) -> None:
        """A moderator deletes ``post``: gone from non-staff reads, ``deleted_at`` for staff."""
        self._stored(post)["deleted_at"] = now()

    def hide_post(self, post: dict[str, Any]) -> None:
        """Flags hide ``post``: still in the topic, with ``hidden: true``."""
        self._stored(post)["hidden"] = True

    def withdraw_post(self, post: dict[str, Any]) -> None:
        """Its author deletes ``post``: ``user_deleted: true`` and the withdrawn notice as raw."""
        stored = self._stored(post)
        stored["user_deleted"] = True
        stored["raw"] = "(post withdrawn by author, will be automatically deleted in 24 hours)"

    def move_to_message(self, post: dict[str, Any]) -> int:
        """A moderator moves ``post`` to a new private message; returns the message's id.

        The post keeps its id, as Discourse's PostMover keeps a moved reply's id.
        """
        stored = self._stored(post)
        self.topics[stored["topic_id"]].posts.remove(stored)
        message_id = max(self.topics) + 1
        message = FakeTopic(message_id, "Moved", None, "private_message", [stored], 1)
        stored.update(topic_id=message_id, post_number=1, topic_archetype="private_message")
        self.topics[message_id] = message
        return message_id

    def close_topic(self, topic_id: int) -> None:
        """A moderator closes the topic: only staff may still reply."""
        self.topics[topic_id].closed = True

    def archive_topic(self, topic_id: int) -> None:
        """A moderator archives the topic: frozen, only staff may still reply."""
        self.topics[topic_id].archived = True

    def delete_topic(self, topic_id: int) -> None:
        """A moderator deletes the topic: gone from non-staff reads, no one may reply."""
        self.topics[topic_id].deleted = True

    def _stored(self, post: dict[str, Any]) -> dict[str, Any]:
        for topic in self.topics.values():
            for stored in topic.posts:
                if stored["id"] == post["id"]:
                    return stored
        raise KeyError(post["id"])

    def _add_post(
        self, topic_id: int, raw: str, username: str, reply_to: int | None
    ) -> dict[str, Any]:
        topic = self.topics[topic_id]
        self._next_post_id += 1
        post: dict[str, Any] = {
            "id": self._next_post_id,
            "name": username.title(),
            "username": username,
            "user_id": self.user_ids.setdefault(username, len(self.user_ids) + 1),
            "post_number": topic.highest_post_number + 1,
            "post_type": 1,
            "raw": raw,
            "cooked": cook(raw),
            "topic_id": topic_id,
            "topic_title": topic.title,
            "topic_slug": re.sub(r"[^a-z0-9]+", "-", topic.title.lower()).strip("-"),
            "topic_archetype": topic.archetype,
            "category_id": topic.category_id,
            "reply_to_post_number": reply_to,
            "created_at": now(),
        }
        if reply_to is not None:
            # a reply to a post moved away has no reply_to_user, as on the real forum
            target = next((p for p in topic.posts if p["post_number"] == reply_to), None)
            quoted = re.search(
                rf'\[quote="[^"\]]*\bpost:{reply_to}\b[^"\]]*"\]', raw, flags=re.IGNORECASE
            )
            if target is not None and not (self.suppress_reply_when_quoting and quoted):
                post["reply_to_user"] = {"username": target["username"], "name": target["name"]}
        topic.posts.append(post)
        topic.highest_post_number += 1
        return post
