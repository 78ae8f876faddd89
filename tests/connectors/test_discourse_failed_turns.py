"""Discourse: a reply that never reaches the topic is a failed turn, not an answered one.

The turn is stored (``done``) once its reply is in the outbox. When the reply is then dropped
(the forum refuses it for good, the topic moved somewhere more public, the question was
deleted, or the outbox gives up retrying), the turn is recorded as ``failed`` so ``citecast
report`` does not count the question as answered; the answer stays stored with it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.connectors.discourse_delivery import OUTBOX_ATTEMPTS
from bot.usage_report import build_report
from tests.connectors.discourse_harness import (
    GUIDE,
    PUBLIC,
    SECRET,
    SECRET_PLAN,
    STAFF,
    Harness,
    opened_harness,
)
from tests.fakes.answerer import GatedAnswerer, ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse, webhook_request

READ_ONLY = 7

Change = Callable[[FakeDiscourse, dict[str, object]], None]


CASES: dict[str, tuple[Change, int]] = {
    "closed": (lambda forum, post: forum.close_topic(int(str(post["topic_id"]))), PUBLIC),
    "archived": (lambda forum, post: forum.archive_topic(int(str(post["topic_id"]))), PUBLIC),
    "deleted": (lambda forum, post: forum.delete_topic(int(str(post["topic_id"]))), STAFF),
    "no permission to post": (lambda forum, post: None, READ_ONLY),
    "question deleted": (FakeDiscourse.delete_post, PUBLIC),
}


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    categories = [PUBLIC, STAFF, READ_ONLY]
    async with (
        FakeDiscourse(readonly_categories=(READ_ONLY,)) as forum,
        opened_harness(forum, tmp_path, categories=categories) as h,
    ):
        yield h


def discourse_usage(harness: Harness) -> tuple[int, int, int, int]:
    """(asked, cited, without sources, failed) of the discourse channel in the report."""
    report = build_report(harness.store, since=0, days=1)
    (usage,) = [u for u in report.channels if u.channel == "discourse"]
    return usage.asked, usage.cited, usage.without_sources, usage.failed


def only_turn_status(harness: Harness, post: dict[str, object]) -> str:
    (turn,) = harness.store.turns(f"discourse-topic-{post['topic_id']}")
    return turn.status


@pytest.mark.parametrize("case", list(CASES))
async def test_a_reply_dropped_before_it_was_posted_is_a_failed_turn(
    harness: Harness, case: str
) -> None:
    change, category = CASES[case]
    harness.script([GUIDE, SECRET_PLAN], "Launch is planned for May [2]; install with pip [1].")
    question = harness.forum.new_topic(
        "Roadmap", "When is the launch planned?", category_id=category
    )
    change(harness.forum, question)
    await harness.deliver(question)
    assert harness.forum.api_posts == []
    assert only_turn_status(harness, question) == "failed"
    assert discourse_usage(harness) == (1, 0, 0, 1)
    (turn,) = harness.store.turns(f"discourse-topic-{question['topic_id']}")
    assert turn.answer is not None  # kept: what would have been posted


async def test_a_reply_refused_on_a_resend_is_a_failed_turn(harness: Harness) -> None:
    # The first attempt meets a forum error (retried by the outbox); meanwhile the topic is
    # closed, and the resend is refused for good.
    question = harness.forum.new_topic(
        "Install", "How do I install it on Linux?", category_id=PUBLIC
    )
    harness.forum.fail("/posts.json", status=503, times=3)
    await harness.deliver(question)
    assert only_turn_status(harness, question) == "done"  # still to be delivered
    harness.forum.close_topic(int(question["topic_id"]))
    await harness.connector._outbox.resend_due()
    assert harness.forum.api_posts == []
    assert only_turn_status(harness, question) == "failed"
    assert discourse_usage(harness)[3] == 1


async def test_a_reply_the_outbox_gives_up_on_is_failed_and_its_later_parts_never_sent(
    harness: Harness,
) -> None:
    long_answer = " ".join(f"Install step {n} is to run pip [1]." for n in range(1500))
    harness.script([GUIDE], long_answer)
    question = harness.forum.new_topic(
        "Install", "How do I install it on Linux?", category_id=PUBLIC
    )
    # every attempt at the first part fails (the client retries 3 times per attempt)
    harness.forum.fail("/posts.json", status=503, times=3 * OUTBOX_ATTEMPTS)
    await harness.deliver(question)
    first = f"discourse-{question['id']}"
    for _ in range(OUTBOX_ATTEMPTS):
        await harness.connector._outbox.resend_due()
    item = harness.store.outbox_item(first)
    assert item is not None and item.status == "dead"
    # the forum works again: the continuation must not be posted without the post it continues
    await harness.connector._outbox.resend_due()
    assert harness.forum.api_posts == []
    assert harness.store.pending("discourse") == []
    assert only_turn_status(harness, question) == "failed"


async def test_a_posted_reply_stays_an_answered_turn(harness: Harness) -> None:
    question = harness.forum.new_topic(
        "Install", "How do I install it on Linux?", category_id=PUBLIC
    )
    await harness.deliver(question)
    assert len(harness.forum.api_posts) == 1
    assert only_turn_status(harness, question) == "done"
    assert discourse_usage(harness) == (1, 1, 0, 0)


async def test_a_private_reply_dropped_because_its_topic_moved_is_a_failed_turn(
    harness: Harness,
) -> None:
    gated = GatedAnswerer(ScriptedAnswerer([SECRET_PLAN], "Launch is planned for May [1]."))
    harness.connector.services.assistant = gated
    question = harness.forum.new_topic("Roadmap", "When is the launch planned?", category_id=STAFF)
    body, headers = webhook_request(question, SECRET)
    await harness.http.post("/discourse/webhook", content=body, headers=headers)
    await gated.started.wait()
    harness.forum.topics[int(question["topic_id"])].category_id = PUBLIC
    gated.gate.set()
    await harness.connector.drain()
    assert harness.forum.api_posts == []
    assert only_turn_status(harness, question) == "failed"
    assert discourse_usage(harness) == (1, 0, 0, 1)
