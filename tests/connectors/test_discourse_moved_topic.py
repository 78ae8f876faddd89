"""Discourse: the audience of an answer is the one of the category the topic is in when answered.

A moderator may move a topic between its webhook and its answer (or before the outbox answers a
question again, long after). The answer is composed for the category the topic sits in then: a
topic moved out of a private category is answered with public sources only (not dropped), and a
topic moved into one may cite what its readers may see.
"""

from __future__ import annotations

import logging

import pytest

from tests.connectors.discourse_harness import (
    GUIDE,
    PUBLIC,
    SECRET,
    SECRET_PLAN,
    STAFF,
    Harness,
    forum,
    harness,
    only_post,
)
from tests.fakes.answerer import GatedAnswerer, ScriptedAnswerer
from tests.fakes.discourse_api import webhook_request

__all__ = ["forum", "harness"]

ANSWER = "Install with pip [1]. Launch is planned for May [2]."


async def test_a_topic_moved_out_of_a_private_category_is_answered_publicly(
    harness: Harness,
) -> None:
    harness.script([GUIDE, SECRET_PLAN], ANSWER)
    question = harness.forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
    harness.forum.topics[question["topic_id"]].category_id = PUBLIC  # moved before the answer
    await harness.deliver(question)  # the webhook still names the staff category
    raw = only_post(harness.forum)["raw"]
    assert GUIDE.url is not None and GUIDE.url in raw
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url not in raw
    assert "Confidential" not in raw and "intranet" not in raw
    assert harness.answerer.calls[-1][1] == frozenset({"public"})


async def test_a_question_answered_again_later_uses_the_category_of_now(
    harness: Harness,
) -> None:
    # The model was down when the webhook came; by the time the outbox answers again the topic
    # has left the staff category.
    harness.script([GUIDE, SECRET_PLAN], ANSWER)
    question = harness.forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
    harness.forum.topics[question["topic_id"]].category_id = PUBLIC
    harness.store.enqueue(
        "discourse-question",
        {"event": _event(question), "trigger": "new_topic"},
        item_id=f"discourse-question-{question['id']}",
    )
    await harness.connector._outbox.answer_due()
    await harness.connector.drain()
    raw = only_post(harness.forum)["raw"]
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url not in raw


async def test_a_reply_in_a_topic_moved_into_a_private_category_may_cite_its_sources(
    harness: Harness,
) -> None:
    # The topic is read for its history anyway; its category now is the one that counts.
    harness.script([GUIDE, SECRET_PLAN], ANSWER)
    first = harness.forum.new_topic("Roadmap", "Planning notes.", category_id=PUBLIC)
    question = harness.forum.user_posts(first["topic_id"], "@citecast when do we launch?")
    harness.forum.topics[question["topic_id"]].category_id = STAFF
    await harness.deliver(question)
    raw = only_post(harness.forum)["raw"]
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url in raw


async def test_a_topic_turned_into_a_private_message_gets_public_sources_only(
    harness: Harness,
) -> None:
    harness.script([GUIDE, SECRET_PLAN], ANSWER)
    question = harness.forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
    topic = harness.forum.topics[question["topic_id"]]
    topic.archetype, topic.category_id = "private_message", None
    await harness.deliver(question)
    assert harness.answerer.calls[-1][1] == frozenset({"public"})
    for post in harness.forum.bot_posts():
        assert SECRET_PLAN.url is not None and SECRET_PLAN.url not in post["raw"]


def _event(post: dict[str, object]) -> dict[str, object]:
    """The stored form of a webhook's post (as ``DiscourseOutbox.keep_question`` stores it)."""
    keys = ("topic_id", "post_number", "username", "raw", "category_id", "topic_title")
    return {"post_id": post["id"], **{key: post[key] for key in keys}}


async def test_a_long_private_reply_moved_away_while_answering_is_dropped_whole(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    # Every part cites staff sources: none is posted, and the drop is logged once, not once per
    # part (nor again as a failed answer).
    long_answer = " ".join(f"Launch step {n} is planned [1]." for n in range(1500))
    gated = GatedAnswerer(ScriptedAnswerer([SECRET_PLAN], long_answer))
    harness.connector.services.assistant = gated
    question = harness.forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
    body, headers = webhook_request(question, SECRET)
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await harness.http.post("/discourse/webhook", content=body, headers=headers)
        await gated.started.wait()
        harness.forum.topics[question["topic_id"]].category_id = PUBLIC
        gated.gate.set()
        await harness.connector.drain()
        await harness.connector._outbox.resend_due()
    assert harness.forum.api_posts == []
    later = harness.store.outbox_item(f"discourse-{question['id']}-2")
    assert later is not None and later.status == "dead"
    assert harness.store.pending("discourse") == []
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "not posted" in errors[0], errors
