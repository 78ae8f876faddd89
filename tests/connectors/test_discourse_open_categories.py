"""Discourse: a category mapped to a group but open to everyone on the forum is public.

``audience_by_category`` is the admin's word; the forum's category security is what decides who
reads a topic, and it can change after the mapping was written (an admin adds *everyone* to a
staff category) or the mapping can name the wrong id. A category whose ``read_restricted`` is
false is read by anyone, so citing a staff source there would show it to the world: it is
answered with public sources only, and that is logged once. On a site that requires a login
(an internal forum) "everyone" is the forum's members, and the mapping stands.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
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

ANSWER = "Install with pip [1]. Launch is planned for May [2]."


@pytest.fixture
async def opened_staff(tmp_path: Path) -> AsyncIterator[Harness]:
    """The staff category (mapped to ``staff``) is open to everyone on the forum."""
    async with (
        FakeDiscourse(open_categories=(PUBLIC, STAFF)) as forum,
        opened_harness(forum, tmp_path) as h,
    ):
        h.script([GUIDE, SECRET_PLAN], ANSWER)
        yield h


def secret_cited(raw: str) -> bool:
    return str(SECRET_PLAN.url) in raw or "Confidential roadmap" in raw


async def test_a_mapped_category_open_to_everyone_gets_public_sources_only(
    opened_staff: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        for title in ("Roadmap", "Launch"):
            question = opened_staff.forum.new_topic(title, "When do we launch?", category_id=STAFF)
            await opened_staff.deliver(question)
    posts = opened_staff.forum.bot_posts()
    assert len(posts) == 2
    assert not any(secret_cited(post["raw"]) for post in posts)
    assert all(call[1] == frozenset({"public"}) for call in opened_staff.answerer.calls)
    said = [r for r in caplog.records if "lets everyone see it" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.ERROR
    assert f"category {STAFF} is mapped to staff" in said[0].getMessage()


async def test_a_restricted_mapped_category_still_cites_its_groups_sources(
    tmp_path: Path,
) -> None:
    async with (
        FakeDiscourse(open_categories=(PUBLIC,)) as forum,
        opened_harness(forum, tmp_path) as h,
    ):
        h.script([GUIDE, SECRET_PLAN], ANSWER)
        question = forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
        await h.deliver(question)
        assert secret_cited(only_post(forum)["raw"])
        assert forum.basic_info_reads == []  # restricted: the site need not be asked


async def test_on_a_forum_that_requires_a_login_the_mapping_stands(tmp_path: Path) -> None:
    async with (
        FakeDiscourse(open_categories=(PUBLIC, STAFF), login_required=True) as forum,
        opened_harness(forum, tmp_path) as h,
    ):
        h.script([GUIDE, SECRET_PLAN], ANSWER)
        question = forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
        await h.deliver(question)
        assert secret_cited(only_post(forum)["raw"])
        # asked without the key: a Granular key is refused every route outside its scopes
        assert forum.basic_info_reads
        assert not any("Api-Key" in headers for headers in forum.basic_info_reads)


async def test_a_staff_reply_is_dropped_when_its_category_is_opened_before_posting(
    tmp_path: Path,
) -> None:
    async with (
        FakeDiscourse(open_categories=(PUBLIC,)) as forum,
        opened_harness(forum, tmp_path) as h,
    ):
        gated = GatedAnswerer(ScriptedAnswerer([GUIDE, SECRET_PLAN], ANSWER))
        h.connector.services.assistant = gated
        question = forum.new_topic("Roadmap", "When do we launch?", category_id=STAFF)
        body, headers = webhook_request(question, SECRET)
        await h.http.post("/discourse/webhook", content=body, headers=headers)
        await gated.started.wait()
        forum.open_categories.add(STAFF)  # an admin opens the category meanwhile
        gated.gate.set()
        await h.connector.drain()
        assert forum.api_posts == []
        item = h.store.outbox_item(f"discourse-{question['id']}")
        assert item is not None and item.status == "dead"
        [turn] = h.store.turns(f"discourse-topic-{question['topic_id']}")
        assert turn.status == "failed"


async def test_without_the_categories_scope_the_mapping_stands_and_is_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A Granular key without categories: show cannot check the category: answered as mapped,
    # as before the check existed, and logged once.
    async with (
        FakeDiscourse(open_categories=(PUBLIC,)) as forum,
        opened_harness(forum, tmp_path) as h,
    ):
        h.script([GUIDE, SECRET_PLAN], ANSWER)
        forum.fail(f"/c/{STAFF}/show.json", status=403, times=10)
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            for title in ("Roadmap", "Launch"):
                question = forum.new_topic(title, "When do we launch?", category_id=STAFF)
                await h.deliver(question)
        posts = forum.bot_posts()
        assert len(posts) == 2 and all(secret_cited(post["raw"]) for post in posts)
        said = [r for r in caplog.records if f"cannot read category {STAFF}" in r.getMessage()]
        assert len(said) == 1
