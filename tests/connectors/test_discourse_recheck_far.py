"""Discourse: a reply that landed more than 500 posts after its question is not posted again.

The search for a landed reply reads the posts after the question page by page, up to 500 of
them. In a topic busier than that (a megathread, or a resend hours later after a long rate
limit or a restart) the reply lies further on: the bot's own posts in the topic are read too,
so the reply is found instead of being posted a second time.
"""

from __future__ import annotations

import pytest

from bot.connectors.discourse_landed import MAX_RECHECK_POSTS
from tests.connectors.discourse_harness import PUBLIC, Harness, forum, harness, outbox_empty
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]

LANDED = "The reply that landed far down the topic, its response lost."


def chatter(forum: FakeDiscourse, topic_id: int, count: int, label: str) -> None:
    for n in range(count):
        forum.user_posts(topic_id, f"Chatter {label} the reply, number {n}.", username="bob")


def bot_replies(forum: FakeDiscourse, topic_id: int) -> list[str]:
    return [p["raw"] for p in forum.topics[topic_id].posts if p["username"] == "citecast"]


@pytest.mark.parametrize("unique_posts_mins", [0.0, 5.0])
async def test_a_reply_landed_past_the_page_search_is_not_posted_again(
    harness: Harness, unique_posts_mins: float
) -> None:
    # 0: a forum without the duplicate window; 5: within it (the 422 leads to the same search).
    forum = harness.forum
    forum.unique_posts_mins = unique_posts_mins
    question = forum.new_topic("Megathread", "Where is the install guide?", category_id=PUBLIC)
    topic_id = question["topic_id"]
    chatter(forum, topic_id, MAX_RECHECK_POSTS + 20, "before")
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
    chatter(forum, topic_id, 30, "after")
    await harness.connector.start()
    await outbox_empty(harness)
    assert bot_replies(forum, topic_id) == [LANDED]
    item = harness.store.outbox_item(item_id)
    assert item is not None and item.status == "sent"


async def test_a_reply_that_did_not_land_is_still_sent_in_a_busy_topic(harness: Harness) -> None:
    forum = harness.forum
    forum.unique_posts_mins = 0
    question = forum.new_topic("Megathread", "Where is the install guide?", category_id=PUBLIC)
    topic_id = question["topic_id"]
    chatter(forum, topic_id, MAX_RECHECK_POSTS + 20, "before")
    # the bot answered someone else in the topic: not the reply looked for
    other = forum.user_posts(topic_id, "@citecast and the FAQ?", username="bob")
    await harness.connector._ensure_client().create_post(
        topic_id, "The FAQ is in the docs.", other["post_number"]
    )
    payload = {
        "topic_id": topic_id,
        "raw": "The reply that never landed.",
        "reply_to_post_number": 1,
        "post_id": question["id"],
        "part": 1,
    }
    harness.store.enqueue("discourse", payload, item_id=f"discourse-{question['id']}")
    await harness.connector.start()
    await outbox_empty(harness)
    assert bot_replies(forum, topic_id) == [
        "The FAQ is in the docs.",
        "The reply that never landed.",
    ]
