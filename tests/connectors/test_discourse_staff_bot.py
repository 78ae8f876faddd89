"""Discourse: a staff bot user never replies in a topic closed, archived or deleted meanwhile.

Discourse refuses a reply in a closed or archived topic to ordinary users, but lets staff (and
trust level 4) post there. A forum that gave the bot moderator rights would otherwise see its
answer land in a topic a moderator had just closed to end the discussion. The topic is read just
before the reply is posted and before every resend; a closed one drops the reply for good,
logged once, its turn failed, exactly as the forum's own refusal does for an ordinary bot user.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tests.connectors.discourse_harness import (
    GUIDE,
    PUBLIC,
    SECRET,
    SECRET_PLAN,
    STAFF,
    Harness,
    only_post,
    opened_harness,
)
from tests.fakes.answerer import GatedAnswerer, ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse, webhook_request

Moderate = Callable[[FakeDiscourse, int], None]
ACTIONS: dict[str, Moderate] = {
    "closed": FakeDiscourse.close_topic,
    "archived": FakeDiscourse.archive_topic,
    "deleted": FakeDiscourse.delete_topic,
}


@pytest.fixture
async def staff_bot(tmp_path: Path) -> AsyncIterator[Harness]:
    async with FakeDiscourse(staff=("citecast",)) as forum, opened_harness(forum, tmp_path) as h:
        yield h


async def answer_while(harness: Harness, category: int, action: Moderate) -> dict[str, object]:
    """Ask in ``category``; a moderator acts on the topic while the answer is composed."""
    gated = GatedAnswerer(ScriptedAnswerer([GUIDE, SECRET_PLAN], "Install with pip [1]."))
    harness.connector.services.assistant = gated
    question = harness.forum.new_topic("Install", "How do I install it?", category_id=category)
    body, headers = webhook_request(question, SECRET)
    await harness.http.post("/discourse/webhook", content=body, headers=headers)
    await gated.started.wait()
    action(harness.forum, int(question["topic_id"]))
    gated.gate.set()
    await harness.connector.drain()
    return question


@pytest.mark.parametrize("state", list(ACTIONS))
@pytest.mark.parametrize("category", [PUBLIC, STAFF])
async def test_a_staff_bot_does_not_reply_in_a_topic_closed_meanwhile(
    staff_bot: Harness, state: str, category: int, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        question = await answer_while(staff_bot, category, ACTIONS[state])
        await staff_bot.connector._outbox.resend_due()
    assert staff_bot.forum.api_posts == []
    item = staff_bot.store.outbox_item(f"discourse-{question['id']}")
    assert item is not None and item.status == "dead" and item.attempts == 1
    [turn] = staff_bot.store.turns(f"discourse-topic-{question['topic_id']}")
    assert turn.status == "failed"
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and f"topic {question['topic_id']}" in errors[0], errors


async def test_a_resend_after_the_topic_was_closed_is_dropped(staff_bot: Harness) -> None:
    forum = staff_bot.forum
    forum.fail("/posts.json", status=503, times=3)  # max_attempts is 3: left to the outbox
    question = forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    await staff_bot.deliver(question)
    item = staff_bot.store.outbox_item(f"discourse-{question['id']}")
    assert item is not None and item.status == "pending"
    forum.close_topic(question["topic_id"])
    await staff_bot.connector._outbox.resend_due()
    assert forum.api_posts == []
    item = staff_bot.store.outbox_item(f"discourse-{question['id']}")
    assert item is not None and item.status == "dead"


async def test_a_staff_bot_still_replies_in_an_open_topic(staff_bot: Harness) -> None:
    question = staff_bot.forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    await staff_bot.deliver(question)
    assert "[^1]" in only_post(staff_bot.forum)["raw"]
