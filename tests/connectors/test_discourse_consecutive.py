"""Discourse's ``max_consecutive_replies``: the fake enforces it as the real validator does, and
a long answer still lands whole (packed, added to the previous part, or kept until the rule
lifts). Driven through the connector's real httpx client against the loopback fake forum."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from bot.connectors.discourse import DiscourseConnector
from bot.connectors.discourse_client import DiscourseAPIError, DiscourseClient
from bot.connectors.discourse_consecutive import append_to_last_post, consecutive_refusal
from bot.models import Source
from bot.runtime import Services
from bot.store import Store
from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    RecordingSleep,
    footnotes,
    opened_harness,
    settings_for,
)
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse
from tests.fakes.discourse_consecutive import CONSECUTIVE_ONE

REFUSAL = (
    "No more than 3 consecutive replies are allowed. Please edit your previous reply, or wait"
    " for someone to reply to you."
)
SOURCES = [
    Source(
        id=f"doc-{i}",
        title=f"Reference page {i}",
        url=f"https://docs.example/reference/{i}",
        text=f"Fact number {i}.",
    )
    for i in range(1, 21)
]
# about 11,500 characters in 20 cited paragraphs, each word unique
ANSWER = "\n\n".join(
    " ".join(f"p{i}w{j:02d}" for j in range(90)) + f" [{i}]." for i in range(1, 21)
)
WORDS = re.findall(r"p\d+w\d\d", ANSWER)


async def post_as(forum: FakeDiscourse, username: str, topic_id: int, raw: str) -> None:
    client = DiscourseClient(forum.url, forum.api_key, username)
    try:
        await client.create_post(topic_id, raw)
    finally:
        await client.aclose()


async def refused_after(
    forum: FakeDiscourse, username: str, topic_id: int, allowed: int = 3
) -> str | None:
    """Post ``allowed`` replies and one more as ``username``; the refusal of the last, if any."""
    for n in range(1, allowed + 1):
        await post_as(
            forum, username, topic_id, f"Reply number {n} in topic {topic_id}, long enough."
        )
    try:
        await post_as(
            forum, username, topic_id, f"One reply more in topic {topic_id}, long enough."
        )
    except DiscourseAPIError as exc:
        assert exc.status == 422
        return "; ".join(exc.errors)
    return None


async def test_the_fake_refuses_a_fourth_consecutive_reply_in_discourses_words() -> None:
    async with FakeDiscourse() as forum:
        topic = forum.new_topic("Rule", "Who may post four times?", category_id=PUBLIC)
        assert await refused_after(forum, "citecast", topic["topic_id"]) == REFUSAL
        # someone else's reply lifts it
        forum.user_posts(topic["topic_id"], "Thanks, and one more question.")
        await post_as(forum, "citecast", topic["topic_id"], "A fourth reply, after alice's.")


@pytest.mark.parametrize(
    "options",
    [
        {"staff": ("citecast",)},
        {"category_moderators": {PUBLIC: ("citecast",)}},
        {"max_consecutive_replies": 0},
    ],
)
async def test_the_fake_exempts_staff_category_moderators_and_a_forum_without_the_rule(
    options: dict[str, Any],
) -> None:
    async with FakeDiscourse(**options) as forum:
        topic = forum.new_topic("Rule", "Who may post four times?", category_id=PUBLIC)
        assert await refused_after(forum, "citecast", topic["topic_id"]) is None


async def test_the_fake_exempts_the_topics_author_and_private_messages() -> None:
    async with FakeDiscourse(max_consecutive_replies=1) as forum:
        own = forum.new_topic(
            "Mine", "The bot opened this topic.", category_id=PUBLIC, username="citecast"
        )
        assert await refused_after(forum, "citecast", own["topic_id"]) is None
        message = forum.new_topic("Message", "A private question.", category_id=None)
        forum.topics[message["topic_id"]].archetype = "private_message"
        assert await refused_after(forum, "citecast", message["topic_id"]) is None
        other = forum.new_topic("Other", "A public question.", category_id=PUBLIC)
        assert await refused_after(forum, "citecast", other["topic_id"], 1) == CONSECUTIVE_ONE


def test_a_refusal_is_told_from_others_in_english_and_by_its_number_elsewhere() -> None:
    assert consecutive_refusal([REFUSAL], 4, 3)
    assert consecutive_refusal([CONSECUTIVE_ONE], 2, 3)
    assert not consecutive_refusal(["Body is limited to 1000 characters; you entered 3102."], 4, 3)
    # a locale whose wording citecast does not know (Discourse's own translations: see
    # test_discourse_consecutive_locales): by the configured number, past it
    unknown = "Nie więcej niż 3 kolejne odpowiedzi są dozwolone."
    assert consecutive_refusal([unknown], 4, 3)
    assert not consecutive_refusal([unknown], 3, 3)  # the forum took three: something else
    assert not consecutive_refusal([unknown], 4, 0)


@asynccontextmanager
async def small_posts(
    forum: FakeDiscourse, tmp_path: Path, max_chars: int, **discourse: Any
) -> AsyncIterator[Harness]:
    """A harness whose operator keeps posts at ``max_chars`` (capabilities.discourse)."""
    settings = settings_for(forum, tmp_path, **discourse).model_copy(
        update={"capabilities": {"discourse": {"max_chars": max_chars}}}
    )
    store = Store(settings.store.path)
    answerer = ScriptedAnswerer(SOURCES, ANSWER)
    connector = DiscourseConnector(Services(settings, store, answerer), sleep=RecordingSleep())
    app = Starlette(routes=connector.routes())
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://citecast")
    try:
        yield Harness(forum, store, connector, http, RecordingSleep(), answerer)
    finally:
        await http.aclose()
        await connector.stop()
        store.close()


def assert_whole(raws: list[str]) -> None:
    """Every word once, in order, and every source defined where it is cited."""
    assert re.findall(r"p\d+w\d\d", "\n".join(raws)) == WORDS
    defined: set[str] = set()
    for raw in raws:
        refs, links = footnotes(raw)
        assert set(refs) <= set(links), raw
        defined |= set(links)
    assert sorted(defined, key=int) == [str(i) for i in range(1, 21)]


async def test_an_answer_is_packed_into_the_posts_the_forum_allows(tmp_path: Path) -> None:
    # max_chars 2000 would make six posts; the forum takes three in a row, of up to 32,000
    async with FakeDiscourse() as forum, small_posts(forum, tmp_path, 2000) as h:
        await h.deliver(forum.new_topic("All", "Tell me everything", category_id=PUBLIC))
        raws = [str(p["raw"]) for p in forum.bot_posts()]
        assert 1 < len(raws) <= 3
        assert_whole(raws)
        assert h.store.pending("discourse") == []
        assert statuses(h) == ["done"]


async def test_a_refused_part_is_added_to_the_previous_one(tmp_path: Path) -> None:
    # The site allows two replies in a row, the configuration says three: the third part is
    # refused and added to the second by an edit (the forum's "edit your previous reply").
    async with (
        FakeDiscourse(max_consecutive_replies=2) as forum,
        small_posts(forum, tmp_path, 5000) as h,
    ):
        question = forum.new_topic("All", "Tell me everything", category_id=PUBLIC)
        await h.deliver(question)
        posts = forum.bot_posts()
        assert len(posts) == 2 and len(forum.edits) == 1
        stored = [p["raw"] for p in forum.topics[posts[0]["topic_id"]].posts[1:]]
        assert_whole(stored)
        # no footnote definition twice in the edited post
        definitions = re.findall(r"^\[\^\d+\]:.*$", stored[-1], flags=re.MULTILINE)
        assert len(definitions) == len(set(definitions))
        assert h.store.pending("discourse") == []
        assert statuses(h) == ["done"]
        # sent again (a crash before it was marked sent): found in the post, not added twice
        third = h.store.outbox_item(f"discourse-{question['id']}-3")
        assert third is not None
        assert await append_to_last_post(h.connector._delivery, third.payload)
        assert len(forum.edits) == 1


async def test_a_part_that_fits_nowhere_waits_for_someone_else_to_reply(tmp_path: Path) -> None:
    # Posts of at most 2,000 characters on the forum itself: six parts, three in a row.
    async with (
        FakeDiscourse(max_post_length=2000) as forum,
        opened_harness(forum, tmp_path, max_post_length=2000) as h,
    ):
        h.script(SOURCES, ANSWER)
        question = forum.new_topic("All", "Tell me everything", category_id=PUBLIC)
        await h.deliver(question)
        assert len(forum.bot_posts()) == 3
        waiting = h.store.pending("discourse")
        assert waiting and waiting[0].attempts == 1  # kept, not dropped
        assert statuses(h) == ["done"]
        delivery = h.connector._delivery
        # the outbox worker's next round, before anyone replied: still kept
        await resend(delivery, h)
        assert len(forum.bot_posts()) == 3 and h.store.pending("discourse")
        forum.user_posts(question["topic_id"], "Thanks! Still reading.")
        while h.store.pending("discourse"):
            await resend(delivery, h)
            forum.user_posts(question["topic_id"], "Go on, please.")
        raws = [str(p["raw"]) for p in forum.bot_posts()]
        assert_whole(raws)
        assert statuses(h) == ["done"]


def statuses(h: Harness) -> list[str]:
    (topic_id,) = {p["topic_id"] for p in h.forum.bot_posts()}
    return [t.status for t in h.store.turns(f"discourse-topic-{topic_id}")]


async def resend(delivery: Any, h: Harness) -> None:
    """Send the pending parts in order, as the outbox worker does when they are due."""
    for item in h.store.pending("discourse"):
        try:
            await delivery.deliver(item.id, item.payload, retrying=True)
        except DiscourseAPIError:
            return
