"""Discourse: a reply that landed with its response lost is found also in a busy topic.

Before a resend the delivery looks for the reply among the posts after the question, page by
page, not among the topic's last posts: in a busy topic dozens of posts may follow the reply
before the outbox retries it.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.connectors import discourse_landed
from tests.connectors.discourse_harness import PUBLIC, Harness, forum, harness, outbox_empty
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]

LANDED = "The reply that landed, its response lost on the way back."


async def landed_reply_then_chatter(
    harness: Harness, before: int, after: int
) -> tuple[dict[str, Any], str]:
    """A question, ``before`` posts, the bot's reply (landed, response lost, so still in the
    outbox), then ``after`` more posts; returns the question and its outbox id."""
    forum = harness.forum
    question = forum.new_topic("Busy", "Where is the install guide?", category_id=PUBLIC)
    topic_id = question["topic_id"]
    for n in range(before):
        forum.user_posts(topic_id, f"Chatter before the reply, number {n}.", username="bob")
    payload = {
        "topic_id": topic_id,
        "raw": LANDED,
        "reply_to_post_number": 1,
        "post_id": question["id"],
        "part": 1,
        "audience": ["public"],
    }
    item_id = harness.store.enqueue("discourse", payload, item_id=f"discourse-{question['id']}")
    await harness.connector._ensure_client().create_post(topic_id, LANDED, 1)
    for n in range(after):
        forum.user_posts(topic_id, f"Chatter after the reply, number {n}.", username="bob")
    return question, item_id


def bot_replies(forum: FakeDiscourse, topic_id: int) -> list[str]:
    return [p["raw"] for p in forum.topics[topic_id].posts if p["username"] == "citecast"]


@pytest.mark.parametrize("unique_posts_mins", [0.0, 5.0])
@pytest.mark.parametrize(("before", "after"), [(0, 60), (45, 60)])
async def test_a_landed_reply_followed_by_many_posts_is_not_posted_again(
    harness: Harness, unique_posts_mins: float, before: int, after: int
) -> None:
    # 0: a forum without the duplicate window; 5: within it (the 422 leads to the same check).
    harness.forum.unique_posts_mins = unique_posts_mins
    question, item_id = await landed_reply_then_chatter(harness, before, after)
    await harness.connector.start()
    await outbox_empty(harness)
    assert bot_replies(harness.forum, question["topic_id"]) == [LANDED]
    item = harness.store.outbox_item(item_id)
    assert item is not None and item.status == "sent"


async def test_the_search_for_a_landed_reply_is_bounded(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The reply did not land; 100 posts follow the question. With a bound of 40 posts only two
    # pages are read before the reply is sent.
    monkeypatch.setattr(discourse_landed, "MAX_RECHECK_POSTS", 40)
    harness.forum.unique_posts_mins = 0
    forum = harness.forum
    question = forum.new_topic("Busy", "Where is the install guide?", category_id=PUBLIC)
    topic_id = question["topic_id"]
    for n in range(100):
        forum.user_posts(topic_id, f"Chatter, number {n}.", username="bob")
    payload = {
        "topic_id": topic_id,
        "raw": "The reply, sent after a bounded search.",
        "reply_to_post_number": 1,
        "post_id": question["id"],
        "part": 1,
    }
    harness.store.enqueue("discourse", payload, item_id=f"discourse-{question['id']}")
    await harness.connector.start()
    await outbox_empty(harness)
    assert bot_replies(forum, topic_id) == ["The reply, sent after a bounded search."]
    reads = [p for m, p, _ in forum.requests if m == "GET" and p == f"/t/{topic_id}/posts.json"]
    # one read of the question, two pages of the posts after it
    assert len(reads) == 3
