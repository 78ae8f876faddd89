"""Discourse: a subcategory without a mapping of its own is read by its parent's audience.

Discourse serves a category's parent as ``parent_category_id`` (``/c/{id}/show.json``). A
subcategory of the ``staff`` category may cite staff sources; one with its own
``audience_by_category`` entry keeps it (also under a public parent, and never joined with the
parent's groups); a parent that cannot be read counts as public, never as private.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

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

STAFF_SUB, STAFF_SUB_SUB, PUBLIC_SUB, PRIVATE_UNDER_PUBLIC, HR_UNDER_STAFF = 19, 29, 15, 16, 17
PARENTS = {
    STAFF_SUB: STAFF,
    STAFF_SUB_SUB: STAFF_SUB,
    PUBLIC_SUB: PUBLIC,
    PRIVATE_UNDER_PUBLIC: PUBLIC,
    HR_UNDER_STAFF: STAFF,
}
ANSWER = "Install with pip [1]. Launch is planned for May [2]."


@pytest.fixture
async def nested(tmp_path: Path) -> AsyncIterator[Harness]:
    async with (
        FakeDiscourse(parent_categories=PARENTS) as forum,
        opened_harness(
            forum,
            tmp_path,
            categories=[PUBLIC, STAFF, *PARENTS],
            audience_by_category={
                str(STAFF): ["staff"],
                str(PRIVATE_UNDER_PUBLIC): ["staff"],
                str(HR_UNDER_STAFF): ["hr"],
            },
        ) as h,
    ):
        h.script([GUIDE, SECRET_PLAN], ANSWER)
        yield h


async def _answer_in(harness: Harness, category: int) -> tuple[frozenset[str], str]:
    question = harness.forum.new_topic("Roadmap", "When do we launch?", category_id=category)
    response = await harness.deliver(question)
    assert response.status_code == 200 and response.json()["accepted"] == "new_topic"
    return harness.answerer.calls[-1][1], only_post(harness.forum)["raw"]


@pytest.mark.parametrize("category", [STAFF_SUB, STAFF_SUB_SUB])
async def test_a_subcategory_of_a_staff_category_may_cite_staff_sources(
    nested: Harness, category: int
) -> None:
    audience, raw = await _answer_in(nested, category)
    assert audience == frozenset({"staff"})
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url in raw
    assert ("GET", f"/c/{category}/show.json", 200) in nested.forum.requests


async def test_a_private_subcategory_of_a_public_category_stays_private(nested: Harness) -> None:
    audience, raw = await _answer_in(nested, PRIVATE_UNDER_PUBLIC)
    assert audience == frozenset({"staff"})
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url in raw


async def test_an_unmapped_subcategory_of_a_public_category_is_public(nested: Harness) -> None:
    audience, raw = await _answer_in(nested, PUBLIC_SUB)
    assert audience == frozenset({"public"})
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url not in raw
    assert "Confidential" not in raw


async def test_a_subcategory_mapping_wins_over_its_parent_and_is_not_joined_with_it(
    nested: Harness,
) -> None:
    audience, raw = await _answer_in(nested, HR_UNDER_STAFF)
    assert audience == frozenset({"hr"})  # not hr + staff: the parent's groups are not added
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url not in raw


@pytest.mark.parametrize("status", [403, 502])
async def test_a_parent_that_cannot_be_read_counts_as_public(
    nested: Harness, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    nested.forum.fail(f"/c/{STAFF_SUB}/show.json", status=status, times=10)
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        audience, raw = await _answer_in(nested, STAFF_SUB)
    assert audience == frozenset({"public"})
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url not in raw
    assert any(f"cannot read category {STAFF_SUB}" in r.getMessage() for r in caplog.records)


async def answer_while_moving(nested: Harness, asked_in: int, moved_to: int) -> dict[str, Any]:
    """Ask in category ``asked_in`` for a staff answer, move the topic to ``moved_to`` while
    it is being written, and let it go out (or not); returns the question's post."""
    gated = GatedAnswerer(ScriptedAnswerer([GUIDE, SECRET_PLAN], ANSWER))
    nested.connector.services.assistant = gated
    question = nested.forum.new_topic("Roadmap", "When do we launch?", category_id=asked_in)
    body, headers = webhook_request(question, SECRET)
    await nested.http.post("/discourse/webhook", content=body, headers=headers)
    await gated.started.wait()
    nested.forum.topics[question["topic_id"]].category_id = moved_to
    gated.gate.set()
    await nested.connector.drain()
    return question


async def test_a_staff_reply_is_posted_in_a_topic_moved_to_a_staff_subcategory(
    nested: Harness,
) -> None:
    await answer_while_moving(nested, STAFF, STAFF_SUB)
    raw = only_post(nested.forum)["raw"]
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url in raw


@pytest.mark.parametrize("moved_to", [PUBLIC_SUB, HR_UNDER_STAFF])
async def test_a_staff_reply_is_dropped_when_its_topic_moves_to_a_subcategory_not_read_by_staff(
    nested: Harness, moved_to: int
) -> None:
    question = await answer_while_moving(nested, STAFF_SUB, moved_to)
    assert nested.forum.api_posts == []
    item = nested.store.outbox_item(f"discourse-{question['id']}")
    assert item is not None and item.status == "dead"


async def test_a_staff_reply_waits_when_the_parent_cannot_be_read_before_posting(
    nested: Harness,
) -> None:
    # Composed for staff; just before posting the forum fails to say whose subcategory the
    # topic is in: the reply is neither posted on a guess nor dropped, it waits for a resend.
    gated = GatedAnswerer(ScriptedAnswerer([GUIDE, SECRET_PLAN], ANSWER))
    nested.connector.services.assistant = gated
    question = nested.forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF_SUB)
    body, headers = webhook_request(question, SECRET)
    await nested.http.post("/discourse/webhook", content=body, headers=headers)
    await gated.started.wait()
    nested.forum.fail(f"/c/{STAFF_SUB}/show.json", status=502, times=3)
    gated.gate.set()
    await nested.connector.drain()
    assert nested.forum.api_posts == []
    item = nested.store.outbox_item(f"discourse-{question['id']}")
    assert item is not None and item.status == "pending"
    await nested.connector._outbox.resend_due()
    raw = only_post(nested.forum)["raw"]
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url in raw


async def test_an_unreadable_parent_is_logged_once_per_category(
    nested: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    # A Granular key without the categories scope: answered publicly, and said once, not per
    # answer.
    nested.forum.fail(f"/c/{STAFF_SUB}/show.json", status=403, times=10)
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        for title in ("Roadmap", "Launch"):
            question = nested.forum.new_topic(title, "When do we launch?", category_id=STAFF_SUB)
            await nested.deliver(question)
    assert len(nested.forum.bot_posts()) == 2
    assert all(call[1] == frozenset({"public"}) for call in nested.answerer.calls)
    warnings = [r for r in caplog.records if f"cannot read category {STAFF_SUB}" in r.getMessage()]
    assert len(warnings) == 1
