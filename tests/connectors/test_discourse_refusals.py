"""Discourse: a reply the forum refuses for good is dropped and logged once, never retried.

A topic closed, archived or deleted while the bot composed its answer, a category the bot may
only read (or not see at all): sending the same reply again cannot succeed, so it is not kept in
the outbox for 12 attempts. Only what may pass (429, 5xx, a dropped connection) is retried.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.connectors.discourse_client import DiscourseAPIError, DiscourseClient
from tests.connectors.discourse_harness import (
    PUBLIC,
    SECRET_PLAN,
    STAFF,
    Harness,
    opened_harness,
)
from tests.fakes.discourse_api import TOPIC_NOT_FOUND, FakeDiscourse

READ_ONLY, HIDDEN = 7, 8

# what happens to the topic before the reply is sent -> the category it sits in
Change = Callable[[FakeDiscourse, int], None]
CASES: dict[str, tuple[Change, int]] = {
    "closed": (FakeDiscourse.close_topic, PUBLIC),
    "archived": (FakeDiscourse.archive_topic, PUBLIC),
    "deleted, with a private reply": (FakeDiscourse.delete_topic, STAFF),
    "a category the bot may only read": (lambda forum, topic_id: None, READ_ONLY),
    "a category the bot cannot see": (lambda forum, topic_id: None, HIDDEN),
}


@pytest.fixture
async def forum() -> AsyncIterator[FakeDiscourse]:
    async with FakeDiscourse(readonly_categories=(READ_ONLY,), hidden_categories=(HIDDEN,)) as fake:
        yield fake


@pytest.fixture
async def harness(forum: FakeDiscourse, tmp_path: Path) -> AsyncIterator[Harness]:
    categories = [PUBLIC, STAFF, READ_ONLY, HIDDEN]
    async with opened_harness(forum, tmp_path, categories=categories) as h:
        yield h


def posts_sent(forum: FakeDiscourse) -> int:
    return sum(1 for method, path, _ in forum.requests if (method, path) == ("POST", "/posts.json"))


def dropped_logs(caplog: pytest.LogCaptureFixture, item_id: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if item_id in r.getMessage() and r.levelno >= logging.ERROR]


@pytest.mark.parametrize("case", list(CASES))
async def test_a_reply_the_forum_refuses_for_good_is_dropped_not_retried(
    harness: Harness, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    change, category = CASES[case]
    forum = harness.forum
    harness.script([SECRET_PLAN], "Launch is planned for May [1].")
    question = forum.new_topic("Roadmap", "When is the launch planned?", category_id=category)
    change(forum, question["topic_id"])
    item_id = f"discourse-{question['id']}"
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.deliver(question)
        sent = posts_sent(forum)
        # the outbox worker has nothing left to send
        await harness.connector._outbox.resend_due()
    assert forum.api_posts == []
    item = harness.store.outbox_item(item_id)
    assert item is not None and item.status == "dead", item
    assert item.attempts == 1
    assert "refused" in (item.last_error or "") and "not retried" in (item.last_error or "")
    assert harness.store.pending("discourse") == []
    assert sent <= 2 and posts_sent(forum) == sent
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and item_id in errors[0], errors


async def test_a_closed_topic_is_named_in_the_log(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    forum = harness.forum
    question = forum.new_topic("Install", "How do I install it on Linux?", category_id=PUBLIC)
    forum.close_topic(question["topic_id"])
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.deliver(question)
    (record,) = dropped_logs(caplog, f"discourse-{question['id']}")
    message = record.getMessage()
    assert f"topic {question['topic_id']} was closed" in message


async def test_every_part_of_a_refused_reply_is_dropped_with_the_first(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    # A continuation must never be posted without the post it continues.
    async with opened_harness(forum, tmp_path, max_post_length=1000) as harness:
        harness.script([], " ".join(f"Sentence number {n} of a long answer." for n in range(80)))
        question = forum.new_topic("Long", "Tell me everything about it.", category_id=PUBLIC)
        forum.close_topic(question["topic_id"])
        await harness.deliver(question)
        items = [harness.store.outbox_item(f"discourse-{question['id']}-{n}") for n in (2, 3)]
        assert items[0] is not None, "the answer should need more than one post"
        assert all(item is None or item.status == "dead" for item in items)
        assert harness.store.pending("discourse") == []
        await harness.connector._outbox.resend_due()
        assert forum.api_posts == []


async def test_a_transient_failure_is_still_retried(harness: Harness) -> None:
    forum = harness.forum
    forum.fail("/posts.json", status=503, times=3)  # max_attempts is 3: the client gives up
    question = forum.new_topic("Install", "How do I install it on Linux?", category_id=PUBLIC)
    await harness.deliver(question)
    item = harness.store.outbox_item(f"discourse-{question['id']}")
    assert item is not None and item.status == "pending"
    await harness.connector._outbox.resend_due()
    assert len(forum.bot_posts()) == 1


async def test_the_fake_forum_refuses_a_closed_topic_as_discourse_does(
    forum: FakeDiscourse,
) -> None:
    topic_id = forum.new_topic("Closed", "Is this still open?", category_id=PUBLIC)["topic_id"]
    forum.close_topic(topic_id)
    client = DiscourseClient(forum.url, forum.api_key, "citecast")
    try:
        with pytest.raises(DiscourseAPIError) as caught:
            await client.create_post(topic_id, "A reply to a closed topic, refused.", 1)
    finally:
        await client.aclose()
    assert (caught.value.status, caught.value.errors) == (422, (TOPIC_NOT_FOUND,))
    assert caught.value.permanent


PERMANENT = (400, 403, 404, 410, 413, 422)
PASSING = (301, 408, 429, 500, 502)


@pytest.mark.parametrize("status", PERMANENT + PASSING)
def test_which_refusals_are_permanent(status: int) -> None:
    assert DiscourseAPIError("refused", status).permanent is (status in PERMANENT)


async def test_a_base_url_without_the_forums_subfolder_is_named(forum: FakeDiscourse) -> None:
    # The forum lives at /forum but the base URL names the site's root: the server there answers
    # 404 with a page, not the forum's JSON. The reply is refused for good, with the cause named.
    topic_id = forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)["topic_id"]
    client = DiscourseClient(forum.url + "/forum", forum.api_key, "citecast")
    try:
        with pytest.raises(DiscourseAPIError) as caught:
            await client.create_post(topic_id, "An answer that cannot reach the forum.", 1)
    finally:
        await client.aclose()
    assert caught.value.status == 404 and caught.value.permanent
    assert "set discourse.base_url to the forum's address" in str(caught.value)
    assert f"{forum.url}/forum/posts.json" in str(caught.value)


async def test_an_unusable_outbox_item_does_not_hold_back_the_replies_after_it(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    # An item the delivery cannot even read (left by a bug, or by another version) would fail
    # the same way every round; the worker sends in order, so it is dropped, not retried.
    forum = harness.forum
    question = forum.new_topic("Install", "How do I install it on Linux?", category_id=PUBLIC)
    broken = harness.store.enqueue("discourse", {"topic_id": question["topic_id"]}, "broken")
    payload = {
        "topic_id": question["topic_id"],
        "raw": "Install it with pip, as the guide says.",
        "reply_to_post_number": 1,
        "post_id": question["id"],
        "part": 1,
    }
    harness.store.enqueue("discourse", payload, item_id=f"discourse-{question['id']}")
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.connector._outbox.resend_due()
    assert [post["raw"] for post in forum.bot_posts()] == [payload["raw"]]
    item = harness.store.outbox_item(broken)
    assert item is not None and item.status == "dead"
    assert "KeyError" in (item.last_error or "")
    assert harness.store.pending("discourse") == []
