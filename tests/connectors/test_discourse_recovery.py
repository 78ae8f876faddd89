"""Discourse: never lose a question, never answer twice, never post private sources in public.

Discourse does not redeliver a webhook it got a 200 for, so a question cut short by a restart
or a failing model endpoint must be answered from the store; the outbox worker must survive a
bad round; a reply composed for a private category must not land in a topic that has since
moved to a public one.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.assistant.base import Reply, ReplyEvent
from bot.errors import BackendError
from bot.models import Exchange
from tests.connectors.discourse_harness import (
    GUIDE,
    PUBLIC,
    SECRET,
    SECRET_PLAN,
    STAFF,
    Harness,
    forum,
    harness,
    make_harness,
    only_post,
    outbox_empty,
)
from tests.fakes.answerer import GatedAnswerer, ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse, webhook_request

__all__ = ["forum", "harness"]


class FlakyAnswerer:
    """Raises ``errors`` one per call, then answers like ``inner``; counts the calls."""

    def __init__(self, inner: ScriptedAnswerer, errors: Sequence[BaseException]) -> None:
        self.inner = inner
        self.errors = list(errors)
        self.calls = 0

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return await self.inner.reply(question, audience, history)

    def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        return self.inner.stream(question, audience, history)


async def until(condition: Any, rounds: int = 1000) -> None:
    """Wait (boundedly) for ``condition()`` to hold."""
    for _ in range(rounds):
        if condition():
            return
        await asyncio.sleep(0.01)


async def close(h: Harness) -> None:
    await h.http.aclose()
    await h.connector.stop()
    h.store.close()


# -- restarts and failures -------------------------------------------------------------------


async def test_a_question_cut_short_by_a_restart_is_answered_after_it(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    before = await make_harness(forum, tmp_path)
    before.connector.shutdown_grace = 0
    gated = GatedAnswerer(before.answerer)
    before.connector.services.assistant = gated
    first = forum.new_topic("Restart", "Will you still answer me?", category_id=PUBLIC)
    body, headers = webhook_request(first, SECRET)
    response = await before.http.post("/discourse/webhook", content=body, headers=headers)
    assert response.json() == {"ok": True, "accepted": "new_topic"}
    await gated.started.wait()
    await close(before)  # the deploy restarts the server mid-answer
    assert forum.api_posts == []

    after = await make_harness(forum, tmp_path)
    try:
        await after.connector.start()
        await until(lambda: len(forum.bot_posts()) > 0)
        await after.connector.drain()
        assert only_post(forum)["reply_to_post_number"] == 1
        # one question, one turn: the answer after the restart finishes the one cut short
        turns = after.store.turns(f"discourse-topic-{first['topic_id']}")
        assert [t.status for t in turns] == ["done"]
        again = await after.deliver(first)  # and a redelivery is still a duplicate
        assert again.json() == {"ok": True, "ignored": "duplicate delivery"}
        await asyncio.sleep(0.05)
        assert len(forum.bot_posts()) == 1
    finally:
        await close(after)


async def test_a_model_outage_is_answered_once_the_model_is_back(harness: Harness) -> None:
    flaky = FlakyAnswerer(harness.answerer, [BackendError("cannot reach the model endpoint")])
    harness.connector.services.assistant = flaky
    first = harness.forum.new_topic("Outage", "Is the model up?", category_id=PUBLIC)
    await harness.deliver(first)
    assert harness.forum.api_posts == []
    question = harness.store.outbox_item(f"discourse-question-{first['id']}")
    assert question is not None and question.status == "pending" and question.attempts == 1
    assert "cannot reach the model endpoint" in (question.last_error or "")

    await harness.connector.start()
    await until(lambda: len(harness.forum.bot_posts()) > 0)
    await harness.connector.drain()
    only_post(harness.forum)
    assert flaky.calls == 2
    question = harness.store.outbox_item(f"discourse-question-{first['id']}")
    assert question is not None and question.status == "sent"


async def test_a_failure_that_would_repeat_is_not_retried(harness: Harness) -> None:
    flaky = FlakyAnswerer(harness.answerer, [RuntimeError("a bug"), RuntimeError("a bug")])
    harness.connector.services.assistant = flaky
    first = harness.forum.new_topic("Bug", "Does a bug loop?", category_id=PUBLIC)
    await harness.deliver(first)
    await harness.connector.start()
    await asyncio.sleep(0.1)  # several outbox rounds
    await harness.connector.drain()
    assert harness.forum.api_posts == [] and flaky.calls == 1
    question = harness.store.outbox_item(f"discourse-question-{first['id']}")
    assert question is not None and question.status == "dead"


async def test_a_question_whose_reply_is_already_queued_is_not_answered_again(
    harness: Harness,
) -> None:
    # A crash between queueing the reply and marking the question done.
    first = harness.forum.new_topic("Crash", "Crash after queueing?", category_id=PUBLIC)
    post_id = first["id"]
    reply = {
        "topic_id": first["topic_id"],
        "raw": "The reply composed before the crash.",
        "reply_to_post_number": 1,
        "post_id": post_id,
        "part": 1,
    }
    harness.store.enqueue("discourse", reply, item_id=f"discourse-{post_id}")
    await harness.deliver(first)  # claims the post and stores the question
    harness.store.enqueue(
        "discourse-question",
        {"event": {"post_id": 1, "topic_id": 1, "post_number": 1, "username": "x", "raw": "?"}},
        item_id="discourse-question-unreadable",
    )
    await harness.connector.start()
    await outbox_empty(harness)
    await harness.connector.drain()
    assert only_post(harness.forum)["raw"] == reply["raw"]
    assert harness.answerer.calls == []
    question = harness.store.outbox_item(f"discourse-question-{post_id}")
    assert question is not None and question.status == "sent"
    broken = harness.store.outbox_item("discourse-question-unreadable")
    assert broken is not None and broken.status == "dead"


async def test_the_outbox_worker_survives_a_bad_round(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.forum.fail("/posts.json", status=503, times=3)
    first = harness.forum.new_topic("Locked", "Is the database locked?", category_id=PUBLIC)
    await harness.deliver(first)
    assert harness.forum.api_posts == []
    pending = harness.store.pending
    failures = [sqlite3.OperationalError("database is locked")]

    def flaky_pending(channel: str) -> Any:
        if failures:
            raise failures.pop()
        return pending(channel)

    monkeypatch.setattr(harness.store, "pending", flaky_pending)
    await harness.connector.start()
    await until(lambda: not failures)  # the worker's first round failed ...
    await outbox_empty(harness)
    only_post(harness.forum)  # ... and the next one sent the reply


# -- duplicates ----------------------------------------------------------------------------------


async def test_a_lost_response_to_the_suffixed_reply_does_not_double_post(
    harness: Harness,
) -> None:
    one = harness.forum.new_topic("Install A", "How to install?", category_id=PUBLIC)
    two = harness.forum.new_topic("Install B", "How to install?", category_id=PUBLIC)
    await harness.deliver(one)
    # The same answer in topic B is "too similar", so it goes out with the unique suffix; the
    # proxy loses the forum's answer to that post.
    harness.forum.fail("/posts.json", status=502, after_accept=True)
    await harness.deliver(two)
    _, second = harness.forum.bot_posts()
    assert second["topic_id"] == two["topic_id"]
    assert second["raw"].endswith(f"<!-- citecast: reply to post {two['id']} -->")
    item = harness.store.outbox_item(f"discourse-{two['id']}")
    assert item is not None and item.status == "sent"

    # Even once the forum's duplicate window has passed, nothing is posted again.
    harness.forum.unique_posts_mins = 0
    await harness.connector.start()
    await asyncio.sleep(0.1)
    assert len(harness.forum.bot_posts()) == 2


async def test_a_retry_finds_a_reply_that_landed_with_its_response_lost(
    harness: Harness,
) -> None:
    # A forum without the duplicate window (unique_posts_mins: 0), or a retry after it passed:
    # the forum saved the reply, the proxy lost the answer, and then stayed down a while (so
    # the topic could not be read to look for the reply either).
    harness.forum.unique_posts_mins = 0
    harness.forum.fail("/posts.json", status=502, after_accept=True)
    first = harness.forum.new_topic("Flaky", "Is the proxy flaky?", category_id=PUBLIC)
    # the reads of the posts after the question fail; the question's own re-read does not
    harness.forum.fail(
        f"/t/{first['topic_id']}/posts.json", status=502, times=3, param="post_number"
    )
    await harness.deliver(first)
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "pending" and item.attempts == 1
    await harness.connector.start()
    await outbox_empty(harness)
    only_post(harness.forum)
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "sent"


async def test_a_reply_that_landed_just_before_a_crash_is_not_posted_again(
    harness: Harness,
) -> None:
    # The forum saved the reply, then the server died before recording it as sent, and came
    # back after the forum's duplicate window had passed.
    first = harness.forum.new_topic("Crash", "Did it land?", category_id=PUBLIC)
    payload = {
        "topic_id": first["topic_id"],
        "raw": "The reply that landed before the crash.",
        "reply_to_post_number": 1,
        "post_id": first["id"],
        "part": 1,
    }
    harness.store.enqueue("discourse", payload, item_id=f"discourse-{first['id']}")
    harness.forum.unique_posts_mins = 0
    client = harness.connector._ensure_client()
    await client.create_post(first["topic_id"], payload["raw"], 1)
    await harness.connector.start()
    await outbox_empty(harness)
    assert only_post(harness.forum)["raw"] == payload["raw"]
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "sent"


# -- audience ------------------------------------------------------------------------------------


async def test_a_private_reply_is_dropped_when_its_topic_moved_to_a_public_category(
    harness: Harness,
) -> None:
    harness.script([GUIDE, SECRET_PLAN], "Install with pip [1]. Launch is planned [2].")
    harness.forum.fail("/posts.json", status=503, times=3)
    staff = harness.forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
    await harness.deliver(staff)
    item = harness.store.outbox_item(f"discourse-{staff['id']}")
    assert item is not None and item.status == "pending"
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url in item.payload["raw"]

    harness.forum.topics[staff["topic_id"]].category_id = PUBLIC  # a moderator moves it
    await harness.connector.start()
    await outbox_empty(harness)
    assert harness.forum.api_posts == []
    item = harness.store.outbox_item(f"discourse-{staff['id']}")
    assert item is not None and item.status == "dead"
    assert "not posted" in (item.last_error or "")


async def test_a_topic_moved_while_answering_gets_no_private_sources(harness: Harness) -> None:
    gated = GatedAnswerer(ScriptedAnswerer([SECRET_PLAN], "Launch is planned [1]."))
    harness.connector.services.assistant = gated
    staff = harness.forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
    body, headers = webhook_request(staff, SECRET)
    await harness.http.post("/discourse/webhook", content=body, headers=headers)
    await gated.started.wait()
    harness.forum.topics[staff["topic_id"]].category_id = PUBLIC
    gated.gate.set()
    await harness.connector.drain()
    assert harness.forum.api_posts == []


async def test_a_private_reply_still_goes_out_while_the_topic_stays_private(
    harness: Harness,
) -> None:
    harness.script([SECRET_PLAN], "Launch is planned [1].")
    staff = harness.forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
    await harness.deliver(staff)
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url in only_post(harness.forum)["raw"]
