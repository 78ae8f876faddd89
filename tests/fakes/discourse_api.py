"""A fake Discourse forum on loopback: the REST endpoints citecast uses, with Discourse's limits.

It is a real aiohttp server bound to 127.0.0.1 on a free port, so the connector's real httpx
client talks HTTP to it. It enforces what the real forum enforces and a test could trip over:

- ``Api-Key`` + ``Api-Username`` on every request, else 403 ``invalid_access``;
- ``max_post_length`` (422 "Body is limited to N characters; you entered M.", Discourse's
  ``too_long_validation`` with M the raw body's length; ``too_long`` words it otherwise) and
  ``min_post_length`` (422 "Body is too short (minimum is N characters)", ``too_short`` words
  it otherwise; counted as Discourse does: stripped, without HTML comments, an :emoji:, a run
  of dots or a run of commas counting one character: ``counted_length``);
- ``max_consecutive_replies`` (3 by default; 0 turns it off) with its exemptions and English
  wording, and post edits (``PUT /posts/{id}.json``, recorded in ``edits``):
  ``tests.fakes.discourse_consecutive``;
- the duplicate-post rule: the same user posting the same body (whitespace ignored) within
  ``unique_posts_mins`` minutes gets 422 "Body is too similar to what you recently posted"
  (``too_similar``: the message in another language, as a forum with another locale words it);
- likes (``POST /post_actions.json``: not one's own post, not twice, not a post one may not
  see, recorded in ``likes``): ``tests.fakes.discourse_likes``;
- ``authorized_extensions`` for uploads (422 "Sorry, the file you are trying to upload is not
  authorized ...") and a maximum attachment size (``tests.fakes.discourse_uploads``);
- ``/session/current.json`` answers the key's user; with ``granular_key`` it is refused 403,
  as the real forum refuses a granular key every route outside its scopes (none covers it),
  the same answer as for a wrong key;
- rate limiting: :meth:`FakeDiscourse.rate_limit` makes the next requests to a path answer 429 with
  ``Retry-After`` and ``extras.wait_seconds``, as Discourse does;
- :meth:`FakeDiscourse.fail` makes the next requests to a path answer any status (e.g. 502);
- ``redirect_to`` makes every API request answer 301 to that address (a base URL on http://
  for an https forum);
- post JSON as the webhook serializer writes it: ``user_id`` (Discourse's own bots, ``system``
  and ``discobot``, have negative ids), ``post_type`` (4 = whisper), and no ``reply_to_user``
  when the reply quotes the post it answers (``suppress_reply_when_quoting``, on by default);
- whispers are served in topic reads only to users in ``staff``; deleted posts are left out of
  every read, but ``staff`` get them by id, with ``deleted_at``;
- a reply to a topic the user may not post in (missing, deleted, closed or archived for
  non-staff, or in ``readonly_categories`` / ``hidden_categories``) gets PostCreator's 422
  "Something went wrong. Perhaps this topic was closed or deleted ..." (``topic_not_found``);
  reading a deleted topic answers 404 ``not_found``, one in ``hidden_categories`` 403
  ``invalid_access`` (:meth:`FakeDiscourse.close_topic`, :meth:`FakeDiscourse.archive_topic`,
  :meth:`FakeDiscourse.delete_topic`);
- ``/c/{id}/show.json`` answers the category with its ``parent_category_id`` (from
  ``parent_categories``, subcategory id -> parent id; null for a top-level category) and its
  ``read_restricted`` (false only for ``open_categories``), and ``/site/basic-info.json`` the
  site's ``login_required`` to anyone (``tests.fakes.discourse_categories``);
- ``/t/{id}/posts.json`` answers ``post_ids[]`` (those posts, if still in the topic) or
  ``post_number=N`` (one page of ``posts_per_page`` posts after N with ``asc=true``, else before
  it), and ``/t/{id}.json`` answers ``username_filters`` (the first post and the named users'
  posts), as the real forum's TopicView does; :meth:`FakeDiscourse.delete_post`,
  :meth:`FakeDiscourse.hide_post`, :meth:`FakeDiscourse.withdraw_post` and
  :meth:`FakeDiscourse.move_to_message` change a post after its webhook was sent.

It records every accepted post and upload, and builds signed webhook deliveries the way Discourse
sends them (:meth:`FakeDiscourse.user_posts` then :func:`webhook_request`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections import defaultdict, deque
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler

from tests.fakes.discourse_categories import ForumCategories
from tests.fakes.discourse_consecutive import consecutive_refusal, edit_post
from tests.fakes.discourse_likes import ForumLikes
from tests.fakes.discourse_scripting import ForumScripting
from tests.fakes.discourse_uploads import ForumUploads
from tests.fakes.discourse_wire import (
    NOT_FOUND,
    NOT_PERMITTED,
    TOO_LONG,
    TOO_SHORT,
    TOO_SIMILAR,
    TOPIC_NOT_FOUND,
    FakeTopic,
    Injected,
    RecordedUpload,
    answer_injected,
    counted_length,
    error_response,
    now,
    post_error,
    public_post,
    request_form,
    signed_delivery,
    webhook_request,
)

DEFAULT_EXTENSIONS = ("jpg", "jpeg", "png", "gif", "heic", "heif", "webp", "avif")


class FakeDiscourse(ForumScripting, ForumUploads, ForumCategories, ForumLikes):
    """The fake forum; ``async with FakeDiscourse(...) as forum:`` serves it on ``forum.url``."""

    def __init__(
        self,
        *,
        api_key: str = "test-api-key",
        users: tuple[str, ...] = ("citecast", "alice", "bob", "system"),
        max_post_length: int = 32_000,
        min_post_length: int = 20,
        authorized_extensions: tuple[str, ...] = DEFAULT_EXTENSIONS,
        max_attachment_bytes: int = 4 * 1024 * 1024,
        unique_posts_mins: float = 5.0,
        posts_per_page: int = 20,
        suppress_reply_when_quoting: bool = True,
        staff: tuple[str, ...] = (),
        readonly_categories: tuple[int, ...] = (),
        hidden_categories: tuple[int, ...] = (),
        parent_categories: dict[int, int] | None = None,
        open_categories: tuple[int, ...] = (),
        login_required: bool = False,
        max_consecutive_replies: int = 3,
        category_moderators: dict[int, tuple[str, ...]] | None = None,
        granular_key: bool = False,
    ) -> None:
        self.api_key = api_key
        self.granular_key = granular_key
        self.users = set(users)
        self.max_post_length = max_post_length
        self.min_post_length = min_post_length
        self.authorized_extensions = tuple(ext.lower() for ext in authorized_extensions)
        self.max_attachment_bytes = max_attachment_bytes
        self.unique_posts_mins = unique_posts_mins
        self.posts_per_page = posts_per_page
        self.suppress_reply_when_quoting = suppress_reply_when_quoting
        self.staff = set(staff)
        # categories non-staff users may read but not post in, and ones they cannot see at all
        self.readonly_categories = set(readonly_categories)
        self.hidden_categories = set(hidden_categories)
        # subcategory id -> its parent's id; every other category is a top-level one
        self.parent_categories = dict(parent_categories or {})
        # categories everyone may read (read_restricted false); every other one is restricted
        self.open_categories = set(open_categories)
        self.login_required = login_required
        self.max_consecutive_replies = max_consecutive_replies
        # category id -> users of its moderating group (category group moderation)
        self.category_moderators = {
            category: set(names) for category, names in (category_moderators or {}).items()
        }
        self.edits: list[dict[str, Any]] = []
        # post id -> the users who liked it
        self.likes: dict[int, set[str]] = {}
        self.basic_info_reads: list[dict[str, str]] = []
        self.redirect_to: str | None = None
        # the duplicate rule's message, in the forum's language (the default locale's)
        self.too_similar = TOO_SIMILAR
        # the max_post_length message, formatted with ``count`` (the limit) and ``length``
        self.too_long = TOO_LONG
        # the min_post_length message, formatted with ``count`` (the minimum)
        self.too_short = TOO_SHORT
        self.user_ids = {"system": -1, "discobot": -2}
        self.topics: dict[int, FakeTopic] = {}
        self.api_posts: list[dict[str, Any]] = []
        self.uploads: list[RecordedUpload] = []
        self.requests: list[tuple[str, str, int]] = []
        self._injected: dict[str, deque[Injected]] = defaultdict(deque)
        self._recent: list[tuple[str, str, float]] = []
        self._next_post_id = 1000
        self._next_upload_id = 1
        self._runner: web.AppRunner | None = None
        self.url = ""

    # -- lifecycle -----------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscourse:
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self._record])
        app.router.add_post("/posts.json", self._create_post)
        app.router.add_put("/posts/{post_id:\\d+}.json", self._edit_post)
        app.router.add_post("/uploads.json", self._upload)
        app.router.add_post("/post_actions.json", self._post_action)
        app.router.add_get("/t/{topic_id:\\d+}.json", self._topic)
        app.router.add_get("/t/{topic_id:\\d+}/posts.json", self._topic_posts)
        app.router.add_get("/c/{category_id:\\d+}/show.json", self._category)
        app.router.add_get("/site/basic-info.json", self._basic_info)
        app.router.add_get("/session/current.json", self._current_session)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def _may_post(self, topic: FakeTopic | None, username: str) -> bool:
        # Guardian#can_create_post_on_topic?: never in a deleted topic; staff also in closed
        # or archived ones, and in any category
        if topic is None or topic.deleted:
            return False
        if username in self.staff:
            return True
        blocked = self.readonly_categories | self.hidden_categories
        return not (topic.closed or topic.archived or topic.category_id in blocked)

    def bot_posts(self, username: str = "citecast") -> list[dict[str, Any]]:
        """Posts accepted through the API from ``username``, oldest first."""
        return [post for post in self.api_posts if post["username"] == username]

    async def _current_session(self, request: web.Request) -> web.Response:
        # SessionController#current; DefaultCurrentUserProvider refuses a granular key outside
        # its scopes exactly as it refuses a wrong key
        denied = self._check(request)
        if denied is not None:
            return denied
        if self.granular_key:
            return error_response(403, [NOT_PERMITTED], "invalid_access")
        return web.json_response({"current_user": {"username": request.headers["Api-Username"]}})

    # -- posts ---------------------------------------------------------------------------------

    async def _create_post(self, request: web.Request) -> web.Response:
        denied = self._check(request)
        if denied is not None:
            return denied
        username = request.headers["Api-Username"]
        form = await request_form(request)
        raw = str(form.get("raw") or "")
        try:
            topic_id = int(form.get("topic_id") or 0)
        except ValueError:
            topic_id = 0
        if not self._may_post(self.topics.get(topic_id), username):
            return post_error(TOPIC_NOT_FOUND)
        if len(raw) > self.max_post_length:
            # StrippedLengthValidator compares the raw body's length, before any stripping
            return post_error(self.too_long.format(count=self.max_post_length, length=len(raw)))
        if counted_length(raw) < self.min_post_length:
            return post_error(self.too_short.format(count=self.min_post_length))
        digest = hashlib.sha1(re.sub(r"\s+", "", raw).encode()).hexdigest()
        now = time.monotonic()
        horizon = now - self.unique_posts_mins * 60
        # PostValidator adds every failing rule's error: the duplicate rule's, then this one's
        errors = [
            message
            for message in (
                self.too_similar
                if any(u == username and d == digest and t > horizon for u, d, t in self._recent)
                else None,
                consecutive_refusal(self, self.topics[topic_id], username),
            )
            if message is not None
        ]
        if errors:
            return web.json_response({"action": "create_post", "errors": errors}, status=422)
        self._recent.append((username, digest, now))
        reply_to = form.get("reply_to_post_number")
        post = self._add_post(topic_id, raw, username, int(reply_to) if reply_to else None)
        self.api_posts.append(post)
        injected = self._injected.get(request.path)
        if injected and injected[0].after_accept:
            return answer_injected(request, injected.popleft())
        return web.json_response(post)

    async def _edit_post(self, request: web.Request) -> web.Response:
        denied = self._check(request)
        return denied if denied is not None else await edit_post(self, request)

    # -- topics --------------------------------------------------------------------------------

    async def _topic(self, request: web.Request) -> web.Response:
        denied = self._check(request)
        if denied is not None:
            return denied
        topic, refused = self._readable(request)
        if refused is not None:
            return refused
        include_raw = request.query.get("include_raw") == "true"
        visible = self._visible(topic, request)
        if "username_filters" in request.query:
            # TopicView: the first post and those of the named users (comma-separated)
            names = {n.lower() for n in request.query["username_filters"].split(",")}
            visible = [
                p for p in visible if p["post_number"] == 1 or p["username"].lower() in names
            ]
        first_page = [public_post(p, include_raw) for p in visible[: self.posts_per_page]]
        return web.json_response(
            {
                "id": topic.id,
                "title": topic.title,
                "category_id": topic.category_id,
                "archetype": topic.archetype,
                "closed": topic.closed,
                "archived": topic.archived,
                "deleted_at": now() if topic.deleted else None,
                "posts_count": len(topic.posts),
                "post_stream": {"posts": first_page, "stream": [p["id"] for p in visible]},
            }
        )

    async def _topic_posts(self, request: web.Request) -> web.Response:
        denied = self._check(request)
        if denied is not None:
            return denied
        topic, refused = self._readable(request)
        if refused is not None:
            return refused
        include_raw = request.query.get("include_raw") == "true"
        number = request.query.get("post_number", "")
        visible = self._visible(topic, request, by_id=not number)
        if number:
            # TopicView#filter_posts_by_post_number: one page after (asc) or before N
            if not number.isdecimal():
                return error_response(400, ["post_number must be a number"], "invalid_parameters")
            if request.query.get("asc") == "true":
                chosen = [p for p in visible if p["post_number"] > int(number)]
                chosen = chosen[: self.posts_per_page]
            else:
                chosen = [p for p in visible if p["post_number"] < int(number)]
                chosen = chosen[-self.posts_per_page :]
        else:
            wanted = {int(value) for value in request.query.getall("post_ids[]", [])}
            chosen = [p for p in visible if p["id"] in wanted]
        posts = [public_post(p, include_raw) for p in chosen]
        return web.json_response({"id": topic.id, "post_stream": {"posts": posts}})

    def _readable(self, request: web.Request) -> tuple[FakeTopic, web.Response | None]:
        # TopicsController: a deleted topic is not found, one the user may not see is refused
        topic = self.topics.get(int(request.match_info["topic_id"]))
        staff = request.headers.get("Api-Username", "") in self.staff
        if topic is None or (topic.deleted and not staff):
            return FakeTopic(0, "", None), error_response(404, [NOT_FOUND], "not_found")
        if topic.category_id in self.hidden_categories and not staff:
            return topic, error_response(403, [NOT_PERMITTED], "invalid_access")
        return topic, None

    def _visible(
        self, topic: FakeTopic, request: web.Request, *, by_id: bool = False
    ) -> list[dict[str, Any]]:
        # Whispers (post_type 4) only for staff, as on the real forum. Deleted posts: never
        # in the stream or a page (without show_deleted), but staff get them by id.
        staff = request.headers.get("Api-Username", "") in self.staff
        return [
            p
            for p in topic.posts
            if (staff or p.get("post_type") != 4) and (not p.get("deleted_at") or (staff and by_id))
        ]

    # -- shared checks -------------------------------------------------------------------------

    def _injected_answer(self, request: web.Request) -> web.Response | None:
        if self.redirect_to is not None:
            location = self.redirect_to.rstrip("/") + request.path_qs
            return web.Response(status=301, headers={"Location": location}, text="Moved")
        injected = self._injected.get(request.path)
        if injected and not injected[0].after_accept and injected[0].applies(request):
            return answer_injected(request, injected.popleft())
        return None

    def _check(self, request: web.Request) -> web.Response | None:
        answer = self._injected_answer(request)
        if answer is not None:
            return answer
        key = request.headers.get("Api-Key", "")
        username = request.headers.get("Api-Username", "")
        if not hmac.compare_digest(key, self.api_key) or username not in self.users:
            return error_response(403, [NOT_PERMITTED], "invalid_access")
        return None

    @web.middleware
    async def _record(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        self.requests.append((request.method, request.path, response.status))
        return response


__all__ = [
    "NOT_FOUND",
    "NOT_PERMITTED",
    "TOO_LONG",
    "TOO_SHORT",
    "TOO_SIMILAR",
    "TOPIC_NOT_FOUND",
    "FakeDiscourse",
    "FakeTopic",
    "RecordedUpload",
    "counted_length",
    "signed_delivery",
    "webhook_request",
]
