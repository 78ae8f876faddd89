"""A part waiting under Discourse's ``max_consecutive_replies``: sent as soon as the webhook
reports someone else's post in its topic, logged once as a warning (INFO after), and never
posted again when an earlier attempt already added it to the previous part by an edit.
Driven through the connector's real httpx client against the loopback fake forum."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    opened_harness,
    outbox_empty,
)
from tests.connectors.test_discourse_consecutive import (
    ANSWER,
    SOURCES,
    assert_whole,
    small_posts,
    statuses,
)
from tests.fakes.discourse_api import FakeDiscourse

CONSECUTIVE = "bot.connectors.discourse_consecutive"
REPLIES = ("Thanks! Still reading.", "Go on, please.", "And the rest?", "Still here.")


async def waiting_answer(h: Harness) -> int:
    """Answer a new topic with six parts of which the forum takes three: the fourth waits.
    Returns the topic's id."""
    h.script(SOURCES, ANSWER)
    question = h.forum.new_topic("All", "Tell me everything", category_id=PUBLIC)
    await h.deliver(question)
    assert len(h.forum.bot_posts()) == 3
    (waiting, *_) = h.store.pending("discourse")
    assert waiting.attempts == 1 and waiting.next_attempt_at > waiting.attempts
    return int(question["topic_id"])


async def test_a_waiting_part_is_due_once_someone_else_posts(tmp_path: Path) -> None:
    async with (
        FakeDiscourse(max_post_length=2000) as forum,
        opened_harness(forum, tmp_path, max_post_length=2000) as h,
    ):
        topic_id = await waiting_answer(h)
        outbox = h.connector._outbox
        await outbox.resend_due()  # the worker's round: not due for minutes yet
        assert len(forum.bot_posts()) == 3
        for reply in REPLIES:
            if not h.store.pending("discourse"):
                break
            before = len(forum.bot_posts())
            # a reply that asks nothing of the bot, but lifts the rule in the topic
            response = await h.deliver(forum.user_posts(topic_id, reply))
            assert response.json()["ignored"] == "no trigger"
            await outbox.resend_due()  # the very next round sends what the forum takes
            assert len(forum.bot_posts()) > before
        assert h.store.pending("discourse") == []
        assert_whole([str(p["raw"]) for p in forum.bot_posts()])
        assert statuses(h) == ["done"]


async def test_the_bots_own_post_makes_nothing_due(tmp_path: Path) -> None:
    async with (
        FakeDiscourse(max_post_length=2000) as forum,
        opened_harness(forum, tmp_path, max_post_length=2000) as h,
    ):
        await waiting_answer(h)
        (waiting, *_) = h.store.pending("discourse")
        await h.deliver(forum.bot_posts()[-1])  # the webhook of the bot's own post
        await h.connector._outbox.resend_due()
        assert len(forum.bot_posts()) == 3
        assert h.store.outbox_item(waiting.id) == waiting
        # nor does a post in another topic
        other = forum.new_topic("Other", "Something else entirely", category_id=PUBLIC)
        await h.deliver(forum.user_posts(other["topic_id"], "A reply elsewhere."))
        assert h.connector._outbox.someone_posted(other["topic_id"]) == 0
        assert h.store.outbox_item(waiting.id) == waiting
        assert len(forum.bot_posts()) == 3


async def test_the_worker_is_woken_rather_than_left_to_its_poll(tmp_path: Path) -> None:
    # an hour between rounds: only the webhook's wake-up can send the rest in this test
    async with (
        FakeDiscourse(max_post_length=2000) as forum,
        opened_harness(forum, tmp_path, max_post_length=2000, outbox_poll_seconds=3600) as h,
    ):
        topic_id = await waiting_answer(h)
        await h.connector.start()
        for reply in REPLIES:
            if not h.store.pending("discourse"):
                break
            before = len(forum.bot_posts())
            await h.deliver(forum.user_posts(topic_id, reply))
            await more_posts_than(forum, before)
            assert len(forum.bot_posts()) > before
        await outbox_empty(h)
        assert h.store.pending("discourse") == []
        assert_whole([str(p["raw"]) for p in forum.bot_posts()])


async def more_posts_than(forum: FakeDiscourse, count: int) -> None:
    """Wait (boundedly) until the bot has more than ``count`` posts and the outbox worker has
    finished its round (the next part refused, or none left)."""
    for _ in range(1000):
        if len(forum.bot_posts()) > count:
            break
        await asyncio.sleep(0.01)
    for _ in range(10):
        await asyncio.sleep(0.01)


async def test_a_waiting_part_warns_once_then_logs_its_retries_at_info(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with (
        FakeDiscourse(max_post_length=2000) as forum,
        opened_harness(forum, tmp_path, max_post_length=2000) as h,
    ):
        topic_id = await waiting_answer(h)
        loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert [(r.name, r.levelname) for r in loud] == [(CONSECUTIVE, "WARNING")]
        assert f"topic {topic_id}" in loud[0].getMessage()
        assert "moderator" in loud[0].getMessage()
        for _ in range(2):
            # the part's scheduled retries, before anyone replied
            caplog.clear()
            (waiting, *_) = h.store.pending("discourse")
            assert h.store.make_due(waiting.id)
            await h.connector._outbox.resend_due()
            assert [r.levelno for r in caplog.records if r.levelno >= logging.WARNING] == []
            assert any(
                r.name == CONSECUTIVE
                and r.levelno == logging.INFO
                and "still waits" in r.getMessage()
                for r in caplog.records
            )
        assert len(forum.bot_posts()) == 3


async def test_a_part_added_by_an_edit_is_not_posted_again_after_a_reply(tmp_path: Path) -> None:
    # The site allows two replies in a row: the third part is added to the second by an edit.
    async with (
        FakeDiscourse(max_consecutive_replies=2) as forum,
        small_posts(forum, tmp_path, 5000) as h,
    ):
        question = forum.new_topic("All", "Tell me everything", category_id=PUBLIC)
        await h.deliver(question)
        assert len(forum.bot_posts()) == 2 and len(forum.edits) == 1
        third = h.store.outbox_item(f"discourse-{question['id']}-3")
        assert third is not None and third.status == "sent"
        # The edit landed but the process died before the part was marked sent: the same
        # part, pending again (a copy, as the store keeps it after such a crash).
        again = h.store.enqueue("discourse", third.payload, item_id="crashed-part-3")
        # someone replied meanwhile: the forum would now take the part as a new post
        forum.user_posts(question["topic_id"], "Thanks, reading it now.")
        await h.connector._outbox.resend_due()
        assert len(forum.bot_posts()) == 2 and len(forum.edits) == 1
        resent = h.store.outbox_item(again)
        assert resent is not None and resent.status == "sent"
        posts = forum.topics[question["topic_id"]].posts
        assert_whole([p["raw"] for p in posts if p["username"] == "citecast"])  # each word once
