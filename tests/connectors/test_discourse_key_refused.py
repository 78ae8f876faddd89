"""A revoked API key holds replies back; it does not drop them, nor ask for a scope.

A QA pass revoked the bot's key for a while: every question asked meanwhile was dropped for
good ("the forum refused the reply … not retried"), and the first warning advised giving the
key the *categories: show* scope. Discourse answers a wrong or revoked key and a key without a
route's scope with the same 403 ``invalid_access`` (the fake forum does the same); the key is
told apart by the read start-up makes, a topic that does not exist: "not found" for a key the
forum takes, 403 again for one it refuses. Driven through the connector's real client against
the loopback fake forum.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.connectors.discourse_key import KEY_RETRY_SECONDS
from bot.connectors.discourse_outbox import QUESTIONS
from tests.connectors.discourse_harness import (
    PUBLIC,
    STAFF,
    Harness,
    forum,
    harness,
    only_post,
    opened_harness,
)
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]

KEY = "test-api-key"


@pytest.fixture
async def unmapped(forum: FakeDiscourse, tmp_path: Path) -> AsyncIterator[Harness]:
    # no category mapped: a public question reads nothing before its reply is posted (a read
    # the forum refuses keeps the question instead: test_discourse_key_refused_question)
    async with opened_harness(forum, tmp_path, audience_by_category={}) as h:
        yield h


async def test_a_reply_held_up_by_a_revoked_key_waits_in_the_outbox(
    unmapped: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness = unmapped
    forum = harness.forum
    forum.api_key = "an admin revoked the bot's key"
    question = forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    item_id = f"discourse-{question['id']}"
    before = time.time()
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.deliver(question)
    assert forum.api_posts == []
    item = harness.store.outbox_item(item_id)
    assert item is not None and item.status == "pending", item
    assert item.next_attempt_at >= before + KEY_RETRY_SECONDS
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "refused the API key" in errors[0], errors
    assert item_id in errors[0] and "kept in the outbox" in errors[0]
    assert not any("not retried" in e or "dropped" in e for e in errors)
    turns = harness.store.turns(f"discourse-topic-{question['topic_id']}")
    assert turns[0].status == "done"

    forum.api_key = KEY  # the admin restores it
    delivery = harness.connector._outbox._delivery
    await delivery.deliver(item_id, item.payload, retrying=True)
    assert "Install with pip" in only_post(forum)["raw"]
    item = harness.store.outbox_item(item_id)
    assert item is not None and item.status == "sent"


async def test_a_missing_scope_is_still_refused_for_good(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # the same 403 from a key the forum takes (a topic in a category the bot may not see)
    async with (
        FakeDiscourse(hidden_categories=(PUBLIC,)) as fake,
        opened_harness(fake, tmp_path) as h,
    ):
        question = fake.new_topic("Install", "How do I install it?", category_id=PUBLIC)
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await h.deliver(question)
        item = h.store.outbox_item(f"discourse-{question['id']}")
        assert item is not None and item.status == "dead"
    assert not any("refused the API key" in r.getMessage() for r in caplog.records)


async def test_a_revoked_key_is_not_reported_as_a_missing_scope(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    # STAFF is mapped: composing reads the category to check it is not open to everyone
    forum = harness.forum
    forum.api_key = "an admin revoked the bot's key"
    question = forum.new_topic("Roadmap", "When is the launch?", category_id=STAFF)
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.deliver(question)
    messages = [r.getMessage() for r in caplog.records]
    assert not any("categories: show" in m for m in messages), messages
    assert any("cannot read category" in m and "refused the API key" in m for m in messages)
    # kept as a question, answered again once the key is restored
    assert harness.store.pending(QUESTIONS) != []
