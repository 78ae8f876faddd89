"""Whose decision a dropped reply was: citecast's own check of the topic, or the forum's refusal.

Before every reply citecast reads the topic and posts nothing in one closed, archived or deleted
meanwhile (``discourse_topic_state``). The QA pass found the ERROR for that reading "the forum
refused the reply to post #1 (topic 101 was closed before the reply was posted; …)", sending an
admin to look for a refusal the forum never made. It now says citecast refused to post it; a
refusal the forum did make keeps its wording. Driven against the loopback fake forum.
"""

from __future__ import annotations

import logging

import pytest

from tests.connectors.discourse_harness import PUBLIC, Harness, forum, harness

__all__ = ["forum", "harness"]


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_topic_closed_before_the_reply_is_citecasts_decision_in_the_log(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    question = harness.forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    harness.forum.close_topic(question["topic_id"])
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.deliver(question)
    [error] = errors(caplog)
    assert f"topic {question['topic_id']}: citecast refused to post the reply to post #1 (" in error
    assert f"topic {question['topic_id']} was closed" in error
    assert "the forum refused" not in error
    assert harness.forum.api_posts == []


async def test_a_refusal_by_the_forum_still_says_the_forum_refused(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    refusal = {"errors": ["You are not permitted to post here."], "error_type": "invalid_access"}
    harness.forum.fail("/posts.json", status=403, body=refusal)
    question = harness.forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.deliver(question)
    [error] = errors(caplog)
    assert f"topic {question['topic_id']}: the forum refused the reply to post #1 (" in error
    assert "not permitted to post here" in error and "citecast refused" not in error
