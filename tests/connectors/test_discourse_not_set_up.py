"""Discourse when citecast is not set up (a refused key, no index): the topic gets a reply saying
so, and the question is not answered again by the outbox worker (12 attempts that fail the same
way, then silence); the operator's log names the cause and its fix once, not once per post."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.setup_errors import NOT_SET_UP_REPLY
from tests.connectors.discourse_harness import PUBLIC, Harness, forum, harness
from tests.connectors.setup_cases import CASES, assert_told_once, misconfigured

__all__ = ["forum", "harness"]


@pytest.mark.parametrize("case", CASES)
async def test_each_topic_is_told_citecast_is_not_set_up(
    harness: Harness, tmp_path: Path, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    h = harness
    async with misconfigured(case, tmp_path) as assistant:
        h.connector.services.assistant = assistant
        topics = [
            h.forum.new_topic("Install", "How do I install citecast?", category_id=PUBLIC),
            h.forum.new_topic("Linux", "Does citecast run on Linux?", category_id=PUBLIC),
        ]
        for topic in topics:
            await h.deliver(topic)
    posts = h.forum.bot_posts()
    assert [p["topic_id"] for p in posts] == [t["topic_id"] for t in topics]
    for post in posts:
        assert NOT_SET_UP_REPLY in post["raw"]
        assert "again" not in post["raw"].lower()
    for topic in topics:
        # done: nothing is left for the outbox worker to answer again
        question = h.store.outbox_item(f"discourse-question-{topic['id']}")
        assert question is not None and question.status == "sent"
        turns = h.store.turns(f"discourse-topic-{topic['topic_id']}")
        assert [t.status for t in turns] == ["failed"]
    assert_told_once(caplog, case)
