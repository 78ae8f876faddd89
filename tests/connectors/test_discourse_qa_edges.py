"""Discourse QA: webhooks the bot must answer sensibly or not at all, never with a traceback.

A post in a private message to the bot, a post edited after its answer, a post by the bot
itself, and a topic deleted while the answer was being written (its reads then answer 404).
Each goes through the real webhook route and the real httpx client against the fake forum;
no log record may carry a traceback, and a private source never reaches a public topic.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.connectors.discourse_harness import (
    GUIDE,
    PUBLIC,
    SECRET_PLAN,
    STAFF,
    Harness,
    forum,
    harness,
)
from tests.fakes.discourse_api import NOT_FOUND

__all__ = ["forum", "harness"]


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []


def message_to_bot(h: Harness, raw: str, **fields: Any) -> dict[str, Any]:
    """A private message to the bot, as Discourse's webhook sends its first post."""
    post = h.forum.new_topic("A private question", raw, category_id=None)
    topic = h.forum.topics[int(post["topic_id"])]
    topic.archetype = "private_message"
    post.update(topic_archetype="private_message", **fields)
    return post


@pytest.mark.parametrize(
    "fields",
    [
        {},
        # a webhook that names a category anyway (a message moved out of a topic keeps it)
        {"category_id": PUBLIC},
        {"category_id": STAFF},
    ],
)
async def test_a_private_message_to_the_bot_is_never_answered(
    harness: Harness, caplog: pytest.LogCaptureFixture, fields: dict[str, Any]
) -> None:
    harness.script([GUIDE, SECRET_PLAN], "Launch in May [2].")
    post = message_to_bot(harness, "@citecast when is the launch?", **fields)
    response = await harness.deliver(post)
    assert response.status_code == 200 and "ignored" in response.json()
    assert harness.forum.api_posts == [] and harness.answerer.calls == []
    no_tracebacks(caplog)


async def test_a_post_edited_after_its_answer_is_not_answered_again(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.script([GUIDE], "Install with pip [1].")
    first = harness.forum.new_topic("Install?", "How do I install it?", category_id=PUBLIC)
    await harness.deliver(first)
    assert len(harness.forum.bot_posts()) == 1
    first["raw"] = "How do I install it? @citecast (edited: on Windows)"
    # Discourse sends the edit as post_edited; a resent post_created of the same post is a
    # redelivery: neither is answered again
    for event in ("post_edited", "post_created"):
        response = await harness.deliver(first, event=event)
        assert response.status_code == 200
    assert len(harness.forum.bot_posts()) == 1
    assert len(harness.answerer.calls) == 1
    no_tracebacks(caplog)


@pytest.mark.parametrize("username", ["citecast", "CiteCast"])
async def test_a_post_by_the_bot_itself_is_never_answered(
    harness: Harness, caplog: pytest.LogCaptureFixture, username: str
) -> None:
    topic = harness.forum.new_topic("Install?", "How do I install it?", category_id=PUBLIC)
    own = harness.forum.user_posts(
        int(topic["topic_id"]), "Ask @citecast anything: reply to me.", username="citecast"
    )
    own["username"] = username
    response = await harness.deliver(own)
    assert response.status_code == 200 and "ignored" in response.json()
    assert harness.forum.api_posts == [] and harness.answerer.calls == []
    no_tracebacks(caplog)


@pytest.mark.parametrize("category", [PUBLIC, STAFF])
async def test_a_topic_deleted_while_the_answer_is_written_gets_no_reply(
    harness: Harness, caplog: pytest.LogCaptureFixture, category: int
) -> None:
    harness.script([GUIDE, SECRET_PLAN], "Install with pip [1]. Launch in May [2].")
    question = harness.forum.new_topic("Install?", "How do I install it?", category_id=category)
    topic_id = int(question["topic_id"])
    # deleted after the webhook was sent, before the reply: every read answers 404
    harness.forum.delete_topic(topic_id)
    caplog.set_level(logging.INFO)
    response = await harness.deliver(question)
    assert response.status_code == 200
    assert harness.forum.api_posts == []
    assert harness.store.pending("discourse") == []
    assert [t.status for t in harness.store.turns(f"discourse-topic-{topic_id}")] == ["failed"]
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert f"topic {topic_id}" in logged
    no_tracebacks(caplog)


async def test_a_reply_refused_with_404_is_dropped_without_a_traceback(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    # the topic is gone by the time the reply is sent: Discourse's JSON 404 for the post
    harness.script([GUIDE], "Install with pip [1].")
    question = harness.forum.new_topic("Install?", "How do I install it?", category_id=PUBLIC)
    topic_id = int(question["topic_id"])
    body = {"errors": [NOT_FOUND], "error_type": "not_found"}
    harness.forum.fail("/posts.json", 404, times=2, body=body)
    await harness.deliver(question)
    assert harness.forum.api_posts == []
    assert harness.store.pending("discourse") == []
    assert [t.status for t in harness.store.turns(f"discourse-topic-{topic_id}")] == ["failed"]
    refused = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert refused and all("404" in r.getMessage() for r in refused)
    no_tracebacks(caplog)
