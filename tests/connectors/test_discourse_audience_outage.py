"""Discourse: a mapped category that cannot be checked for a while is never trusted.

README: a category mapped to a group whose security lets everyone see it is answered with
public sources only. The check reads ``/c/{id}/show.json``; only the forum's *refusal* of that
read (403/404: a key without the *categories: show* scope) lets the mapping stand unchecked. A
5xx, a 429 asking for longer than ``retry_max_seconds`` or a dropped connection proves nothing:
the category then counts as public while composing, and a private reply waiting to be posted
is kept for later instead of being posted on the mapping's word.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.discourse_harness import (
    GUIDE,
    SECRET,
    SECRET_PLAN,
    STAFF,
    opened_harness,
    outbox_empty,
)
from tests.fakes.answerer import GatedAnswerer, ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse, webhook_request

ANSWER = "Install with pip [1]. Launch is planned for May [2]."
SHOW = f"/c/{STAFF}/show.json"


def break_category_reads(forum: FakeDiscourse, hiccup: str) -> None:
    """Make the next reads of the staff category fail the way ``hiccup`` says."""
    if hiccup == "429 asking for 120s":
        forum.rate_limit(SHOW, wait_seconds=120, times=30)
    elif hiccup == "502":
        forum.fail(SHOW, 502, times=30)
    elif hiccup == "403 marked as a rate limit":
        limited = {
            "errors": ["Slow down."],
            "error_type": "rate_limit",
            "extras": {"wait_seconds": 120},
        }
        forum.fail(SHOW, 403, times=30, body=limited)
    else:
        forum.fail(SHOW, 0, times=30)  # the connection dropped


def private_cited(raw: str) -> bool:
    return "Confidential roadmap" in raw or "intranet.example" in raw


@pytest.mark.parametrize(
    "hiccup", ["429 asking for 120s", "403 marked as a rate limit", "502", "dropped connection"]
)
async def test_an_open_category_that_cannot_be_checked_gets_public_sources_only(
    tmp_path: Path, hiccup: str
) -> None:
    async with FakeDiscourse(open_categories=(STAFF,)) as forum:
        break_category_reads(forum, hiccup)
        async with opened_harness(forum, tmp_path) as h:
            h.script([GUIDE, SECRET_PLAN], ANSWER)
            topic = forum.new_topic("Plans?", "What are the plans?", category_id=STAFF)
            await h.deliver(topic)
            await outbox_empty(h)
            assert h.answerer.calls and all(
                call[1] == frozenset({"public"}) for call in h.answerer.calls
            )
            posted = " ".join(p["raw"] for p in forum.bot_posts())
            assert not private_cited(posted), posted


async def test_a_forum_error_on_the_check_does_not_ask_for_a_scope(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with FakeDiscourse() as forum:
        forum.fail(SHOW, 502, times=30)
        async with opened_harness(forum, tmp_path) as h:
            h.script([GUIDE, SECRET_PLAN], ANSWER)
            topic = forum.new_topic("Plans?", "What are the plans?", category_id=STAFF)
            with caplog.at_level(logging.WARNING, logger="bot.connectors"):
                await h.deliver(topic)
            said = [
                r.getMessage()
                for r in caplog.records
                if f"cannot read category {STAFF}" in r.getMessage()
            ]
            assert said and all("public sources only" in m for m in said), said
            assert not any("categories: show" in m or "trusting" in m for m in said), said


async def test_a_private_reply_is_kept_when_the_check_before_posting_fails(
    tmp_path: Path,
) -> None:
    async with (
        FakeDiscourse() as forum,
        opened_harness(forum, tmp_path) as h,
    ):
        gated = GatedAnswerer(ScriptedAnswerer([GUIDE, SECRET_PLAN], ANSWER))
        h.connector.services.assistant = gated
        question = forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
        body, headers = webhook_request(question, SECRET)
        await h.http.post("/discourse/webhook", content=body, headers=headers)
        await gated.started.wait()
        # composed for staff; then the forum fails (and is opened to everyone meanwhile)
        forum.open_categories.add(STAFF)
        forum.fail(SHOW, 502, times=30)
        gated.gate.set()
        await h.connector.drain()
        assert forum.api_posts == []
        item = h.store.outbox_item(f"discourse-{question['id']}")
        assert item is not None and item.status == "pending", item
