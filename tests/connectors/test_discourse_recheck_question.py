"""Discourse: a question deleted, hidden, withdrawn or moved after its webhook is not answered.

The webhook arrives when the post is created; flags, moderators and authors act after that,
while the assistant composes the answer or the reply waits in the outbox. Just before the reply
is sent the question is read again (one request) and a reply to a post that is gone is dropped
and logged.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    forum,
    harness,
    make_harness,
    opened_harness,
)
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]

QUESTION = "@citecast how do I install the server on Linux?"

# how the post changed -> what the log says (a deleted post is gone from a non-staff bot's reads)
CHANGES: dict[str, tuple[Callable[[FakeDiscourse, dict[str, Any]], object], str]] = {
    "deleted": (FakeDiscourse.delete_post, "no longer in the topic"),
    "hidden": (FakeDiscourse.hide_post, "hidden"),
    "withdrawn": (FakeDiscourse.withdraw_post, "withdrawn by its author"),
    "moved": (FakeDiscourse.move_to_message, "no longer in the topic"),
}


def ask(forum: FakeDiscourse) -> dict[str, Any]:
    """A mention in a topic; returns the webhook's copy of the post (as it was when sent)."""
    topic = forum.new_topic("Install", "Installing on Linux, notes.", category_id=PUBLIC)
    return copy.deepcopy(forum.user_posts(topic["topic_id"], QUESTION, username="bob"))


def reads_of_question(forum: FakeDiscourse, topic_id: int) -> int:
    return sum(1 for m, p, _ in forum.requests if m == "GET" and p == f"/t/{topic_id}/posts.json")


@pytest.mark.parametrize("state", list(CHANGES))
async def test_a_question_changed_after_its_webhook_is_not_answered(
    harness: Harness, state: str, caplog: pytest.LogCaptureFixture
) -> None:
    change, said = CHANGES[state]
    post = ask(harness.forum)
    change(harness.forum, post)
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.deliver(post)
    assert harness.forum.api_posts == []
    item = harness.store.outbox_item(f"discourse-{post['id']}")
    assert item is not None and item.status == "dead"
    assert said in (item.last_error or "")
    assert any(f"post {post['id']} is {said}" in r.getMessage() for r in caplog.records)


async def test_a_staff_bot_does_not_answer_a_deleted_question(tmp_path: Path) -> None:
    # A staff bot still reads a deleted post by id: its deleted_at is what tells.
    async with (
        FakeDiscourse(staff=("citecast",)) as forum,
        opened_harness(forum, tmp_path) as harness,
    ):
        post = ask(forum)
        forum.delete_post(post)
        await harness.deliver(post)
        assert forum.api_posts == []
        item = harness.store.outbox_item(f"discourse-{post['id']}")
        assert item is not None and item.status == "dead"


async def test_a_question_hidden_while_its_reply_waited_in_the_outbox_is_not_answered(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.forum.fail("/posts.json", status=503, times=3)
    post = ask(harness.forum)
    await harness.deliver(post)
    item = harness.store.outbox_item(f"discourse-{post['id']}")
    assert item is not None and item.status == "pending"
    harness.forum.hide_post(post)
    await harness.connector.start()
    for _ in range(1000):
        item = harness.store.outbox_item(f"discourse-{post['id']}")
        if item is None or item.status != "pending":
            break
        await asyncio.sleep(0.01)
    assert harness.forum.api_posts == []
    assert item is not None and item.status == "dead"
    # a reply dropped on purpose is logged once as such, not also as a failed resend
    assert not [r for r in caplog.records if "resend failed" in r.getMessage()]


async def test_every_part_of_a_long_reply_is_dropped_after_one_read(tmp_path: Path) -> None:
    async with FakeDiscourse(max_post_length=1000) as forum:
        harness = await make_harness(forum, tmp_path, max_post_length=1000)
        harness.script([], "A long answer about installing. " * 80)
        try:
            post = ask(forum)
            forum.withdraw_post(post)
            await harness.deliver(post)
            assert forum.api_posts == []
            items = [
                harness.store.outbox_item(f"discourse-{post['id']}"),
                harness.store.outbox_item(f"discourse-{post['id']}-2"),
            ]
            assert all(item is not None and item.status == "dead" for item in items)
            assert reads_of_question(forum, post["topic_id"]) == 1
        finally:
            await harness.http.aclose()
            await harness.connector.stop()
            harness.store.close()


async def test_a_question_still_there_is_answered_after_one_read(harness: Harness) -> None:
    question = harness.forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    await harness.deliver(question)
    topic_id = question["topic_id"]
    assert [(m, p) for m, p, _ in harness.forum.requests] == [
        # an unmapped category may inherit a mapped parent's audience: its parent is read
        ("GET", f"/c/{PUBLIC}/show.json"),
        # the topic (closed meanwhile?), then the question (deleted meanwhile?)
        ("GET", f"/t/{topic_id}.json"),
        ("GET", f"/t/{topic_id}/posts.json"),
        ("POST", "/posts.json"),
    ]
    assert len(harness.forum.bot_posts()) == 1
