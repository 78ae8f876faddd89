"""Discourse delivery: rate limits, unique suffixes, lost responses and outbox retries."""

from __future__ import annotations

import time

from bot.connectors.discourse_delivery import OUTBOX_ATTEMPTS
from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    footnotes,
    forum,
    harness,
    only_post,
    outbox_empty,
)

__all__ = ["forum", "harness"]


async def test_rate_limit_is_honoured_then_the_reply_is_posted(harness: Harness) -> None:
    harness.forum.rate_limit("/posts.json", wait_seconds=2)
    harness.forum.fail("/posts.json", status=500)
    first = harness.forum.new_topic("Busy", "Are you busy?", category_id=PUBLIC)
    await harness.deliver(first)
    only_post(harness.forum)
    assert harness.sleep.waits == [2.0, 0.0]
    assert [item.status for item in harness.store.pending("discourse")] == []


async def test_the_same_answer_twice_gets_a_unique_suffix(harness: Harness) -> None:
    one = harness.forum.new_topic("Install A", "How to install?", category_id=PUBLIC)
    two = harness.forum.new_topic("Install B", "How to install?", category_id=PUBLIC)
    await harness.deliver(one)
    await harness.deliver(two)
    first, second = harness.forum.bot_posts()
    assert second["topic_id"] == two["topic_id"]
    assert second["raw"].startswith(first["raw"])
    assert second["raw"] != first["raw"]
    assert second["raw"].endswith(f"<!-- citecast: reply to post {two['id']} -->")
    assert footnotes(second["raw"]) == footnotes(first["raw"])


async def test_a_lost_response_does_not_double_post(harness: Harness) -> None:
    harness.forum.fail("/posts.json", status=502, after_accept=True)
    first = harness.forum.new_topic("Flaky", "Is the proxy flaky?", category_id=PUBLIC)
    await harness.deliver(first)
    only_post(harness.forum)
    statuses = [s for _, path, s in harness.forum.requests if path == "/posts.json"]
    assert statuses == [502]  # found in the topic: not sent again
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "sent"


async def test_a_failed_reply_stays_in_the_outbox_and_is_resent(harness: Harness) -> None:
    harness.forum.fail("/posts.json", status=503, times=3)
    first = harness.forum.new_topic("Down", "Is the forum down?", category_id=PUBLIC)
    await harness.deliver(first)
    assert harness.forum.api_posts == []
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "pending" and item.attempts == 1
    turns = harness.store.turns(f"discourse-topic-{first['topic_id']}")
    assert turns[0].status == "done"

    await harness.connector.start()
    await outbox_empty(harness)
    only_post(harness.forum)
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "sent"


async def test_a_long_rate_limit_is_waited_out_as_the_forum_asked(harness: Harness) -> None:
    # Longer than retry_max_seconds (5): the client leaves the wait to the outbox.
    harness.forum.rate_limit("/posts.json", wait_seconds=600)
    first = harness.forum.new_topic("Busy", "Are you busy?", category_id=PUBLIC)
    before = time.time()
    await harness.deliver(first)
    assert harness.forum.api_posts == [] and harness.sleep.waits == []
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "pending" and item.attempts == 1
    assert item.next_attempt_at >= before + 600


async def test_rate_limits_do_not_use_up_the_outbox_attempts(harness: Harness) -> None:
    # Every delivery meets three 429s (the client's max_attempts) until more outbox attempts
    # than a failing forum would get have passed; then the reply still goes out.
    harness.forum.rate_limit("/posts.json", wait_seconds=0, times=3 * (OUTBOX_ATTEMPTS + 1))
    first = harness.forum.new_topic("Busy", "Are you busy?", category_id=PUBLIC)
    await harness.deliver(first)
    await harness.connector.start()
    await outbox_empty(harness)
    only_post(harness.forum)
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "sent" and item.attempts == OUTBOX_ATTEMPTS + 1
