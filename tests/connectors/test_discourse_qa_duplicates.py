"""Discourse: a reply the forum saved behind a failed response is never posted twice.

A proxy's 502 or a timeout can come after the forum saved the post. On a forum without the
duplicate window (``unique_posts_mins: 0``) nothing stops a blind resend, so the client must
look in the topic before sending the post again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_http import RetryPolicy
from bot.errors import DeliveryUncertainError
from tests.connectors.discourse_harness import (
    PUBLIC,
    RecordingSleep,
    make_harness,
    only_post,
    opened_harness,
)
from tests.fakes.discourse_api import FakeDiscourse


@pytest.fixture
async def forum() -> AsyncIterator[FakeDiscourse]:
    async with FakeDiscourse(unique_posts_mins=0) as fake:
        yield fake


def client_for(forum: FakeDiscourse, sleep: RecordingSleep) -> DiscourseClient:
    retry = RetryPolicy(max_attempts=4, base_seconds=0.5, max_seconds=30)
    return DiscourseClient(forum.url, forum.api_key, "citecast", retry=retry, sleep=sleep)


def post_statuses(forum: FakeDiscourse) -> list[int]:
    return [status for _, path, status in forum.requests if path == "/posts.json"]


async def test_a_reply_saved_behind_a_proxy_error_is_posted_once(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path) as harness:
        forum.fail("/posts.json", status=502, after_accept=True)
        first = forum.new_topic("Flaky", "Is the proxy flaky today?", category_id=PUBLIC)
        await harness.deliver(first)
        assert only_post(forum)["reply_to_post_number"] == 1
        assert post_statuses(forum) == [502]
        item = harness.store.outbox_item(f"discourse-{first['id']}")
        assert item is not None and item.status == "sent"


async def test_without_a_landed_check_a_post_is_not_sent_again_blindly(
    forum: FakeDiscourse,
) -> None:
    topic_id = forum.new_topic("Flaky", "Is the proxy flaky?", category_id=PUBLIC)["topic_id"]
    forum.fail("/posts.json", status=502, after_accept=True)
    sleep = RecordingSleep()
    client = client_for(forum, sleep)
    try:
        with pytest.raises(DeliveryUncertainError, match="may have been carried out"):
            await client.create_post(topic_id, "The answer, saved by the forum.", 1)
    finally:
        await client.aclose()
    assert len(forum.api_posts) == 1
    assert post_statuses(forum) == [502]
    assert sleep.waits == []


async def test_a_post_that_did_not_land_is_sent_again_after_looking(
    forum: FakeDiscourse,
) -> None:
    topic_id = forum.new_topic("Down", "Is the forum down?", category_id=PUBLIC)["topic_id"]
    forum.fail("/posts.json", status=503)
    sleep = RecordingSleep()
    client = client_for(forum, sleep)
    looked: list[bool] = []

    async def landed() -> bool:
        looked.append(True)
        return False

    try:
        await client.create_post(topic_id, "The answer, sent twice.", 1, landed=landed)
    finally:
        await client.aclose()
    assert post_statuses(forum) == [503, 200]
    assert len(forum.api_posts) == 1
    assert looked == [True] and sleep.waits == [0.5]


GERMAN_TOO_SIMILAR = "Der Text ist zu ähnlich zu dem, was du kürzlich geschrieben hast."


async def test_the_same_answer_twice_on_a_forum_in_another_language(tmp_path: Path) -> None:
    # The duplicate rule's refusal comes in the forum's language: the second answer must still
    # go out at once with the unique suffix, not wait out the forum's window in the outbox.
    async with FakeDiscourse() as forum:
        forum.too_similar = GERMAN_TOO_SIMILAR
        async with opened_harness(forum, tmp_path) as harness:
            one = forum.new_topic("Installation A", "Wie installiere ich?", category_id=PUBLIC)
            two = forum.new_topic("Installation B", "Wie installiere ich?", category_id=PUBLIC)
            await harness.deliver(one)
            await harness.deliver(two)
            first, second = forum.bot_posts()
            assert second["topic_id"] == two["topic_id"]
            assert (
                second["raw"] == first["raw"] + f"\n\n<!-- citecast: reply to post {two['id']} -->"
            )
            assert post_statuses(forum) == [200, 422, 200]
            assert harness.store.pending("discourse") == []


async def test_another_refusal_is_not_taken_for_a_duplicate(tmp_path: Path) -> None:
    # A 422 the suffix cannot get past (here: one naming no limit, refusing a reply too short
    # to be split) is recorded as the failure, and the reply dropped: sending the same body
    # again cannot succeed. (A reply refused as too long is split: test_discourse_lowered_limit.)
    async with FakeDiscourse() as forum:
        harness = await make_harness(forum, tmp_path)
        harness.script([], "A short answer, refused. " * 4)
        try:
            forum.fail("/posts.json", status=422, times=2)
            first = forum.new_topic("Long", "Tell me everything.", category_id=PUBLIC)
            await harness.deliver(first)
            assert forum.api_posts == []
            assert post_statuses(forum) == [422, 422]
            item = harness.store.outbox_item(f"discourse-{first['id']}")
            assert item is not None and item.status == "dead"
            assert "Something went wrong" in (item.last_error or "")
        finally:
            await harness.http.aclose()
            await harness.connector.stop()
            harness.store.close()


async def test_a_reply_saved_before_the_connection_dropped_is_posted_once(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path) as harness:
        forum.fail("/posts.json", status=0, after_accept=True)
        first = forum.new_topic("Dropped", "Did the connection drop?", category_id=PUBLIC)
        await harness.deliver(first)
        only_post(forum)
        item = harness.store.outbox_item(f"discourse-{first['id']}")
        assert item is not None and item.status == "sent"


async def test_a_dropped_connection_before_the_forum_saved_the_reply_is_retried(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path) as harness:
        forum.fail("/posts.json", status=0)
        first = forum.new_topic("Dropped", "Did the connection drop?", category_id=PUBLIC)
        await harness.deliver(first)
        only_post(forum)
        item = harness.store.outbox_item(f"discourse-{first['id']}")
        assert item is not None and item.status == "sent"
