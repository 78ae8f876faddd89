"""A question asked while the forum refuses the API key waits for the key, for its real audience.

A QA pass revoked the bot's key, then asked about a staff-only subject in a category mapped to
``staff``. The category and the topic could not be read (the same 403 as a missing scope), so
the answer was composed on a guess, queued in the outbox with the staff audience, and, once the
key was restored, posted as that guess: "I could not find anything about that in the knowledge
base." A refused key is treated like an unreachable forum instead: nothing is composed, the
question stays in the store and the outbox worker answers it again (no sooner than a reply held
up by the key would be resent), for the audience of its category, once the forum reads again.
Driven through the connector's real client against the loopback fake forum.
"""

from __future__ import annotations

import logging
import time

import pytest

from bot.connectors.discourse_key import KEY_RETRY_SECONDS
from bot.connectors.discourse_outbox import QUESTIONS
from tests.connectors.discourse_harness import (
    SECRET_PLAN,
    STAFF,
    Harness,
    forum,
    harness,
    only_post,
)

__all__ = ["forum", "harness"]

KEY = "test-api-key"
REVOKED = "an admin revoked the bot's key"


async def ask_with_the_key_revoked(harness: Harness, raw: str) -> dict[str, object]:
    harness.script([SECRET_PLAN], "Launch in May [1].")
    harness.forum.api_key = REVOKED
    question = harness.forum.new_topic("Roadmap", raw, category_id=STAFF)
    await harness.deliver(question)
    return question


async def test_a_question_in_a_private_category_waits_for_a_revoked_key(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    before = time.time()
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        question = await ask_with_the_key_revoked(harness, "@citecast zephyrine launch")
    # nothing composed on a guess: no reply kept, no call to the assistant
    assert harness.store.pending("discourse") == []
    assert harness.answerer.calls == []
    [kept] = harness.store.pending(QUESTIONS)
    assert kept.attempts == 1 and kept.next_attempt_at >= before + KEY_RETRY_SECONDS
    messages = [r.getMessage() for r in caplog.records]
    assert any("cannot read category" in m and "refused the API key" in m for m in messages)
    assert not any("public sources" in m or "categories: show" in m for m in messages), messages

    harness.forum.api_key = KEY  # the admin restores it
    assert harness.store.make_due(kept.id)
    await harness.connector._outbox.answer_due()
    await harness.connector.drain()
    raw = only_post(harness.forum)["raw"]
    assert "Launch in May" in raw and "intranet.example/roadmap" in raw, raw
    assert harness.answerer.calls[-1][1] == frozenset({"staff"})
    assert harness.store.pending(QUESTIONS) == []
    # one question, one turn: the answer once the key is back finishes the one that waited
    turns = harness.store.turns(f"discourse-topic-{question['topic_id']}")
    assert [t.status for t in turns] == ["done"]


async def test_a_refused_topic_read_keeps_the_question_too(harness: Harness) -> None:
    # a reply in a public topic reads the topic for its history: refused, the question waits
    harness.forum.api_key = REVOKED
    first = harness.forum.new_topic("Install", "How do I install it?", category_id=5)
    reply = harness.forum.user_posts(first["topic_id"], "@citecast and on Windows?")
    await harness.deliver(reply)
    assert harness.store.pending("discourse") == []
    assert harness.answerer.calls == []
    assert [q.payload["event"]["post_id"] for q in harness.store.pending(QUESTIONS)] == [
        reply["id"]
    ]
