"""The Discourse REST API over httpx: posts, uploads and topic reads.

The requests, with their API key and their retries after 429, 5xx and dropped connections, are
:class:`bot.connectors.discourse_http.DiscourseHTTP`'s, the client's base.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.connectors.discourse_errors import DiscourseAPIError
from bot.connectors.discourse_http import DiscourseHTTP, Landed, Recheck
from bot.connectors.discourse_upload_names import sent_file_name
from bot.errors import ChannelError

# Discourse's PostActionType for a like
LIKE = 2


@dataclass(frozen=True)
class Upload:
    """An accepted upload: the ``upload://`` short URL to write in a post, and the file name."""

    short_url: str
    filename: str
    url: str | None = None


class DiscourseClient(DiscourseHTTP):
    """An authenticated client for one forum; close it with :meth:`aclose`."""

    async def create_post(
        self,
        topic_id: int,
        raw: str,
        reply_to_post_number: int | None = None,
        *,
        landed: Landed | None = None,
        recheck: Recheck | None = None,
    ) -> dict[str, Any]:
        """Post ``raw`` in a topic (as a reply to a post number); returns the new post's JSON,
        or ``{}`` when ``landed`` found that an earlier attempt had posted it. ``recheck`` runs
        after every retry's wait, before the post is sent again (a topic moved, closed or its
        question deleted meanwhile raises there, and nothing is sent).

        A 5xx, a timeout or a connection lost once the request was sent can come after the
        forum saved the post (a proxy's 502, a slow forum): sending it again blindly would post
        it twice on a forum without a duplicate window. So after such a failure the post is
        sent again only when ``landed`` (asked after the backoff wait) says it is not in the
        topic; without ``landed`` the failure raises DeliveryUncertainError at once. A 429 and
        a connection that never opened are retried as for every request.
        """
        body: dict[str, Any] = {"topic_id": topic_id, "raw": raw}
        if reply_to_post_number is not None:
            body["reply_to_post_number"] = reply_to_post_number
        return await self._request(
            "POST", "/posts.json", json=body, once=True, landed=landed, recheck=recheck
        )

    async def edit_post(
        self, post_id: int, raw: str, *, edit_reason: str | None = None
    ) -> dict[str, Any]:
        """Replace the ``raw`` of post ``post_id`` (``PUT /posts/{id}.json``; the API key needs
        the *posts: edit* scope). Sending the same full body twice has the effect of once."""
        post: dict[str, Any] = {"raw": raw}
        if edit_reason:
            post["edit_reason"] = edit_reason
        return await self._request("PUT", f"/posts/{post_id}.json", json={"post": post})

    async def like(self, post_id: int) -> dict[str, Any]:
        """Like post ``post_id`` as the bot user (``POST /post_actions.json``, action type 2);
        returns the post's JSON. The forum refuses a second like of the same post, and a like
        of the bot's own post, with 403; a post gone with 404. A like cannot take effect twice,
        so it is retried after 5xx like any request."""
        body = {"id": post_id, "post_action_type_id": LIKE, "flag_topic": False}
        return await self._request("POST", "/post_actions.json", json=body)

    async def upload(self, path: Path, filename: str, media_type: str | None) -> Upload:
        """Upload a file for use in a post; DiscourseAPIError(422) when the forum refuses it."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ChannelError(f"cannot read {path} for upload: {exc.strerror}") from None
        result = await self._request(
            "POST",
            "/uploads.json",
            data={"type": "composer", "synchronous": "true"},
            files={
                "file": (sent_file_name(filename), data, media_type or "application/octet-stream")
            },
        )
        short_url = result.get("short_url")
        if not isinstance(short_url, str) or not short_url.startswith("upload://"):
            raise DiscourseAPIError("upload answer has no upload:// short_url", 200)
        url = result.get("url")
        return Upload(short_url, filename, url if isinstance(url, str) else None)

    async def topic(self, topic_id: int, *, username: str | None = None) -> dict[str, Any]:
        """The topic JSON (``/t/{id}.json``): title, category and the first page of posts.

        With ``username`` the post stream holds only that user's posts and the first post
        (Discourse's ``username_filters``, the topic's "filter by user").
        """
        params = {"include_raw": "true"}
        if username is not None:
            params["username_filters"] = username
        return await self._request("GET", f"/t/{topic_id}.json", params=params)

    async def category(self, category_id: int) -> dict[str, Any]:
        """The category JSON (``/c/{id}/show.json``'s ``category``): among others its
        ``parent_category_id`` and ``read_restricted`` (false when its security lets everyone
        see it)."""
        data = await self._request("GET", f"/c/{category_id}/show.json")
        category = data.get("category")
        return category if isinstance(category, dict) else {}

    async def parent_category(self, category_id: int) -> int | None:
        """The id of the category ``category_id`` is a subcategory of, or None for a top-level
        one (``/c/{id}/show.json``'s ``category.parent_category_id``)."""
        return category_parent(await self.category(category_id))

    async def login_required(self) -> bool:
        """The site's ``login_required`` (``/site/basic-info.json``).

        Asked without the API key: Discourse answers basic-info to anyone, also on a site that
        requires a login, while a key with granular scopes is refused every route outside them.
        """
        request = self._http.build_request("GET", "/site/basic-info.json")
        for header in ("Api-Key", "Api-Username"):
            del request.headers[header]
        data = await self._request("GET", "/site/basic-info.json", prepared=request)
        return data.get("login_required") is True

    async def current_user(self) -> dict[str, Any]:
        """The user the API key acts as (``/session/current.json``'s ``current_user``).

        Outside every granular scope: a granular key that works elsewhere is refused here with
        the same 403 as a wrong key (see ``discourse_start``).
        """
        data = await self._request("GET", "/session/current.json")
        user = data.get("current_user")
        return user if isinstance(user, dict) else {}

    async def recent_posts(
        self, topic_id: int, limit: int, *, username: str | None = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The topic JSON and its last ``limit`` posts, oldest first (fetching past page one);
        with ``username``, that user's last ``limit`` posts (see :meth:`topic`)."""
        topic = await self.topic(topic_id, username=username)
        stream = topic.get("post_stream") or {}
        loaded = {p["id"]: p for p in stream.get("posts") or [] if isinstance(p, dict)}
        ids = [i for i in stream.get("stream") or list(loaded) if isinstance(i, int)]
        wanted = ids[-limit:] if limit > 0 else []
        missing = [i for i in wanted if i not in loaded]
        for start in range(0, len(missing), 20):
            chunk = missing[start : start + 20]
            params: list[tuple[str, str | int]] = [("post_ids[]", i) for i in chunk]
            params.append(("include_raw", "true"))
            page = await self._request("GET", f"/t/{topic_id}/posts.json", params=params)
            for post in (page.get("post_stream") or {}).get("posts") or []:
                if isinstance(post, dict) and isinstance(post.get("id"), int):
                    loaded[post["id"]] = post
        return topic, [loaded[i] for i in wanted if i in loaded]

    async def posts_after(
        self, topic_id: int, post_number: int
    ) -> AsyncGenerator[list[dict[str, Any]], None]:
        """The topic's posts after post ``post_number``, oldest first, one page at a time.

        ``/t/{id}/posts.json?post_number=N&asc=true`` answers at most one page (20 posts on
        a default forum) of the posts that follow N; the next page starts after the last post
        returned. The caller stops reading when it has what it needs, so a long topic is not
        read further than that. Ends at the first empty page.
        """
        after = post_number
        while True:
            params = {"post_number": after, "asc": "true", "include_raw": "true"}
            page = await self._request("GET", f"/t/{topic_id}/posts.json", params=params)
            posts = [
                post
                for post in (page.get("post_stream") or {}).get("posts") or []
                if isinstance(post, dict)
                and isinstance(post.get("post_number"), int)
                and post["post_number"] > after
            ]
            if not posts:
                return
            yield posts
            after = max(post["post_number"] for post in posts)

    async def post_in_topic(self, topic_id: int, post_id: int) -> dict[str, Any] | None:
        """Post ``post_id`` as the bot user now sees it in the topic, or None when it is no
        longer there (deleted for the bot's eyes, moved to another topic or a private message,
        or the topic deleted).

        Read through ``/t/{id}/posts.json?post_ids[]=ID``, which the API key's *topics: read*
        scope allows (``/posts/{id}.json`` needs a global read key). A staff bot also sees a
        deleted post, with its ``deleted_at``.
        """
        params: list[tuple[str, str | int]] = [("post_ids[]", post_id), ("include_raw", "true")]
        try:
            page = await self._request("GET", f"/t/{topic_id}/posts.json", params=params)
        except DiscourseAPIError as exc:
            if exc.status == 404:
                return None
            raise
        for post in (page.get("post_stream") or {}).get("posts") or []:
            if isinstance(post, dict) and post.get("id") == post_id:
                return post
        return None


def category_parent(category: dict[str, Any]) -> int | None:
    """A category JSON's ``parent_category_id`` (None for a top-level category)."""
    parent = category.get("parent_category_id")
    return parent if isinstance(parent, int) and not isinstance(parent, bool) else None


__all__ = [
    "LIKE",
    "DiscourseAPIError",
    "DiscourseClient",
    "Upload",
    "category_parent",
]
