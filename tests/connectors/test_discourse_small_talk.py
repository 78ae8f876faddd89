"""Discourse: a reply that only thanks the bot ("Thanks, that worked!") is liked, not answered.

Answered with a post, "You're welcome!" would bump the topic and, under the forum's minimum
post length, carry a note saying the forum asks for longer posts. The post is liked instead
(``POST /post_actions.json``), nothing is posted and the answerer is not asked; a greeting is
still answered, and ``discourse.like_small_talk: false`` answers thanks with a post again.
Driven through the connector's real httpx client against the loopback fake forum, which takes
likes as Discourse does (not twice, not one's own post, not a post gone).
"""

from __future__ import annotations

import asyncio
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
    opened_harness,
)
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]


async def answered_topic(h: Harness) -> int:
    """A topic whose question the bot answered (its reply is post 2); returns its id."""
    first = h.forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    await h.deliver(first)
    assert len(h.forum.bot_posts()) == 1
    return int(first["topic_id"])


async def thank(h: Harness, topic: int, raw: str = "Thanks, that worked!") -> dict[str, Any]:
    """alice replies to the bot's answer with ``raw``; returns her post."""
    post = h.forum.user_posts(topic, raw, reply_to=2)
    await h.deliver(post)
    return post


def question_status(h: Harness, post: dict[str, Any]) -> tuple[str, int] | None:
    item = h.store.outbox_item(f"discourse-question-{post['id']}")
    return None if item is None else (item.status, item.attempts)


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("raw", ["Thanks, that worked!", "ok thanks", "Perfect!", "bye"])
async def test_a_thank_you_is_liked_and_not_answered(harness: Harness, raw: str) -> None:
    topic = await answered_topic(harness)
    thanks = await thank(harness, topic, raw)
    assert harness.forum.likes == {thanks["id"]: {"citecast"}}
    assert len(harness.forum.bot_posts()) == 1  # only the answer
    asked = "Install\n\nHow do I install it?"
    assert [question for question, _, _ in harness.answerer.calls] == [asked]
    assert question_status(harness, thanks) == ("sent", 0)
    # no turn: nothing was answered
    assert [t.question for t in harness.store.turns(f"discourse-topic-{topic}")] == [asked]


async def test_a_greeting_is_still_answered(harness: Harness) -> None:
    topic = await answered_topic(harness)
    hello = harness.forum.user_posts(topic, "Hello @citecast")
    await harness.deliver(hello)
    assert harness.forum.likes == {}
    assert len(harness.forum.bot_posts()) == 2


async def test_a_like_whose_answer_was_lost_is_not_liked_twice(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    # the forum takes the like but its answer is lost; the retry is refused as liked already
    topic = await answered_topic(harness)
    harness.forum.fail("/post_actions.json", 502, after_accept=True)
    with caplog.at_level(logging.WARNING):
        thanks = await thank(harness, topic)
    assert harness.forum.likes == {thanks["id"]: {"citecast"}}
    assert len(harness.forum.bot_posts()) == 1
    assert question_status(harness, thanks) == ("sent", 0)
    assert "refused to like post" in caplog.text


async def test_a_forum_down_likes_the_post_once_it_is_back(harness: Harness) -> None:
    topic = await answered_topic(harness)
    harness.forum.fail("/post_actions.json", 502, times=3)  # every attempt of the client
    thanks = await thank(harness, topic)
    assert harness.forum.likes == {}
    assert question_status(harness, thanks) == ("pending", 1)

    await harness.connector.start()
    await until(lambda: bool(harness.forum.likes))
    await harness.connector.drain()
    assert harness.forum.likes == {thanks["id"]: {"citecast"}}
    assert len(harness.forum.bot_posts()) == 1
    assert question_status(harness, thanks) == ("sent", 1)


async def test_thanks_are_answered_with_a_post_when_likes_are_off(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path, like_small_talk=False) as h:
        topic = await answered_topic(h)
        await thank(h, topic)
        assert forum.likes == {}
        assert len(forum.bot_posts()) == 2
