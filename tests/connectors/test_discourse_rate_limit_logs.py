"""Discourse: a rate limit is a wait, not an error, and the log says when the reply went out.

A 429 leaves the reply in the outbox to be sent when the forum allows; it used to be logged at
ERROR ("rate limited for 8s") while the later, successful post logged nothing.
"""

from __future__ import annotations

import logging

import pytest

from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    forum,
    harness,
    only_post,
    outbox_empty,
)

__all__ = ["forum", "harness"]


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_long_rate_limit_is_logged_as_a_wait(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    harness.forum.rate_limit("/posts.json", wait_seconds=8)
    first = harness.forum.new_topic("Busy", "Are you busy?", category_id=PUBLIC)
    await harness.deliver(first)
    assert harness.forum.api_posts == []
    assert errors(caplog) == []
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("rate-limits" in m and "outbox" in m and "8s" in m for m in warned), warned


async def test_the_reply_posted_after_a_rate_limit_is_logged(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    # three 429s: the client's max_attempts, so the reply waits in the outbox
    harness.forum.rate_limit("/posts.json", wait_seconds=0, times=3)
    first = harness.forum.new_topic("Busy", "Are you busy?", category_id=PUBLIC)
    await harness.deliver(first)
    await harness.connector.start()
    await outbox_empty(harness)
    only_post(harness.forum)
    assert errors(caplog) == []
    posted = [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.INFO and "posted after 1 failed attempt" in r.getMessage()
    ]
    assert posted == [f"discourse topic {first['topic_id']}: reply discourse-{first['id']} posted"
                      " after 1 failed attempt(s)"]  # fmt: skip
