"""``DiscourseClient.like`` against the fake forum, which refuses likes as Discourse does: a
like of one's own post, a second like and a like of a deleted post are refused for good (403,
403, 404); a like is answered with the post and its ``actions_summary``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from bot.connectors.discourse_client import LIKE, DiscourseAPIError, DiscourseClient
from bot.connectors.discourse_http import RetryPolicy
from tests.fakes.discourse_api import FakeDiscourse


@pytest.fixture
async def forum() -> AsyncIterator[FakeDiscourse]:
    async with FakeDiscourse() as fake:
        yield fake


@pytest.fixture
async def client(forum: FakeDiscourse) -> AsyncIterator[DiscourseClient]:
    opened = DiscourseClient(forum.url, forum.api_key, "citecast", retry=RetryPolicy(1, 0, 0))
    yield opened
    await opened.aclose()


async def refusal(client: DiscourseClient, post_id: int) -> tuple[int, bool]:
    with pytest.raises(DiscourseAPIError) as refused:
        await client.like(post_id)
    return refused.value.status, refused.value.permanent


async def test_a_like_is_taken_once(forum: FakeDiscourse, client: DiscourseClient) -> None:
    post = forum.new_topic("Install", "Thanks!", category_id=5)
    liked = await client.like(post["id"])
    assert liked["id"] == post["id"]
    assert liked["actions_summary"] == [{"id": LIKE, "count": 1, "acted": True, "can_undo": True}]
    assert await refusal(client, post["id"]) == (403, True)
    assert forum.likes == {post["id"]: {"citecast"}}


async def test_own_deleted_and_missing_posts_are_refused(
    forum: FakeDiscourse, client: DiscourseClient
) -> None:
    own = forum.new_topic("Mine", "An answer of the bot.", category_id=5, username="citecast")
    gone = forum.user_posts(own["topic_id"], "Thanks!")
    forum.delete_post(gone)
    assert await refusal(client, own["id"]) == (403, True)
    assert await refusal(client, gone["id"]) == (404, True)
    assert await refusal(client, 99_999) == (404, True)
    assert forum.likes == {}


async def test_a_like_needs_the_post_and_the_action(forum: FakeDiscourse) -> None:
    headers = {"Api-Key": forum.api_key, "Api-Username": "citecast"}
    async with httpx.AsyncClient(base_url=forum.url, headers=headers) as http:
        missing = await http.post("/post_actions.json", json={"post_action_type_id": LIKE})
    assert missing.status_code == 400
    assert missing.json()["error_type"] == "invalid_parameters"
