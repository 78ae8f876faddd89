"""A later part the outbox resends is posted even when it reads like the bot's first reply.

Found with the Discourse small-post QA pass: ``appended_before`` (the check that a part was
already added to the bot's previous post) took a post reading exactly like the part for one it
was appended to, so a resent part reading like the first reply was dropped as "already added".
A post that is the part alone is not one the part was added to.
"""

from __future__ import annotations

import pytest

from tests.connectors.discourse_harness import PUBLIC, Harness, forum, harness, outbox_empty

__all__ = ["forum", "harness"]


@pytest.mark.parametrize("unique_posts_mins", [0.0, 5.0])
async def test_a_resent_later_part_reading_like_the_first_is_posted(
    harness: Harness, unique_posts_mins: float
) -> None:
    forum = harness.forum
    forum.unique_posts_mins = unique_posts_mins
    question = forum.new_topic("Restart?", "Does it restart?", category_id=PUBLIC)
    topic_id = question["topic_id"]
    body = "The service restarts on its own after the install."
    await harness.connector._ensure_client().create_post(topic_id, body, 1)
    payload = {
        "topic_id": topic_id,
        "raw": body,
        "reply_to_post_number": 1,
        "post_id": question["id"],
        "part": 2,
        "audience": ["public"],
    }
    harness.store.enqueue("discourse", payload, item_id=f"discourse-{question['id']}-2")
    await harness.connector.start()
    await outbox_empty(harness)
    replies = [str(p["raw"]) for p in forum.bot_posts()]
    assert len(replies) == 2 and all(reply.startswith(body) for reply in replies)
