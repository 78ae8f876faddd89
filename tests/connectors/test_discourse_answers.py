"""Discourse answers end to end: private sources stay out of public categories; long answers fit."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from bot.connectors.discourse import DiscourseConnector
from bot.models import Source
from bot.runtime import Services
from bot.store import Store
from tests.connectors.discourse_harness import (
    GUIDE,
    PUBLIC,
    SECRET_PLAN,
    STAFF,
    Harness,
    RecordingSleep,
    footnotes,
    forum,
    harness,
    make_harness,
    only_post,
    settings_for,
)
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]


# -- audience ----------------------------------------------------------------------------------


async def test_a_private_source_is_never_cited_in_a_public_category(harness: Harness) -> None:
    raw = "Public fact [1]. Secret plan <CIT private-id /> launches soon [2]."
    harness.script([GUIDE, SECRET_PLAN], raw)
    first = harness.forum.new_topic("Plans?", "What is planned?", category_id=PUBLIC)
    await harness.deliver(first)
    posted = only_post(harness.forum)["raw"]
    for leak in ("Confidential", "intranet.example", "Launch in May", "private-id", "CIT"):
        assert leak not in posted
    refs, links = footnotes(posted)
    assert set(refs) == {"1"} and [url for _, url in links["1"]] == [GUIDE.url]

    staff = harness.forum.new_topic("Plans, staff", "What is planned?", category_id=STAFF)
    await harness.deliver(staff)
    assert harness.answerer.calls[-1][1] == frozenset({"staff"})
    staff_raw = harness.forum.bot_posts()[-1]["raw"]
    assert SECRET_PLAN.url is not None and SECRET_PLAN.url in staff_raw


# -- length ------------------------------------------------------------------------------------


def many_sources(count: int) -> list[Source]:
    return [
        Source(
            id=f"doc-{i}",
            title=f"Reference page {i}",
            url=f"https://docs.example/reference/{i}",
            text=f"Fact number {i}.",
        )
        for i in range(1, count + 1)
    ]


@pytest.mark.parametrize("max_post_length", [32_000, 6_000])
async def test_sixty_citations_fit_and_every_source_arrives(
    forum: FakeDiscourse, tmp_path: Path, max_post_length: int
) -> None:
    forum.max_post_length = max_post_length
    h = await make_harness(forum, tmp_path, max_post_length=max_post_length)
    try:
        sources = many_sources(60)
        raw = " ".join(
            f"Fact number {i} holds in every supported configuration [{i}]." for i in range(1, 61)
        )
        h.script(sources, raw)
        first = forum.new_topic("Everything", "Tell me everything", category_id=PUBLIC)
        await h.deliver(first)
        posts = forum.bot_posts()
        if max_post_length == 32_000:
            assert len(posts) == 1
        defined: dict[str, list[tuple[str, str]]] = {}
        for post in posts:
            assert len(post["raw"]) <= max_post_length
            assert post["reply_to_post_number"] == 1
            refs, links = footnotes(post["raw"])
            assert refs and set(refs) <= set(links)  # every reference resolves in its own post
            defined.update(links)
        assert sorted(defined, key=int) == [str(i) for i in range(1, 61)]
        for i, source in enumerate(sources, start=1):
            assert defined[str(i)] == [(f"Reference page {i}", source.url)]
    finally:
        await h.http.aclose()
        await h.connector.stop()
        h.store.close()


async def test_long_titles_move_text_to_a_second_post_rather_than_shorten(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    h = await make_harness(forum, tmp_path)
    try:
        subtitle = "with a long descriptive subtitle that goes on " * 7
        sources = [
            Source(
                id=f"doc-{i}",
                title=f"Reference page {i} {subtitle}",
                url=f"https://docs.example/reference/section-{i}/" + "deep-path-segment/" * 4,
                text=f"Fact number {i}.",
            )
            for i in range(1, 61)
        ]
        raw = "\n\n".join(
            f"Fact number {i} holds in every supported configuration of the gateway, "
            f"as the reference page explains at length [{i}]."
            for i in range(1, 61)
        )
        h.script(sources, raw)
        await h.deliver(forum.new_topic("Everything", "Tell me everything", category_id=PUBLIC))
        # Compacting the definitions would fit one post, but the forum takes 3 replies in a
        # row: the text moves to a second post before any definition is shortened.
        posts = [str(p["raw"]) for p in forum.bot_posts()]
        assert len(posts) == 2
        links: dict[str, list[tuple[str, str]]] = {}
        for post in posts:
            refs, defined = footnotes(post)
            assert sorted(set(refs), key=int) == sorted(defined, key=int)
            links.update(defined)
        assert sorted(links, key=int) == [str(i) for i in range(1, 61)]
        for i, source in enumerate(sources, start=1):
            ((title, url),) = links[str(i)]
            assert url == source.url and title.startswith(f"Reference page {i} with")
            assert len(title) > 200  # the title as long as the richest definition shows it
    finally:
        await h.http.aclose()
        await h.connector.stop()
        h.store.close()


@pytest.mark.parametrize("max_chars", [8_000, 500])
async def test_a_configured_max_chars_below_the_forum_limit_is_kept(
    forum: FakeDiscourse, tmp_path: Path, max_chars: int
) -> None:
    # a forum without max_consecutive_replies (or a staff bot): as many small posts as needed
    forum.max_consecutive_replies = 0
    settings = settings_for(forum, tmp_path, max_consecutive_replies=0).model_copy(
        update={"capabilities": {"discourse": {"max_chars": max_chars}}}
    )
    store = Store(settings.store.path)
    raw = "\n\n".join(
        f"Paragraph {i}. " + "The gateway keeps working. " * 20 + f"So it does [{i}]."
        for i in range(1, 21)
    )
    answerer = ScriptedAnswerer(many_sources(20), raw)
    connector = DiscourseConnector(Services(settings, store, answerer), sleep=RecordingSleep())
    app = Starlette(routes=connector.routes())
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://citecast")
    h = Harness(forum, store, connector, http, RecordingSleep(), answerer)
    try:
        await h.deliver(forum.new_topic("Everything", "Tell me everything", category_id=PUBLIC))
        posts = forum.bot_posts()
        assert len(posts) > 1
        defined: dict[str, list[tuple[str, str]]] = {}
        for post in posts:
            assert len(post["raw"]) <= max_chars
            refs, links = footnotes(post["raw"])
            assert set(refs) <= set(links)  # every reference resolves in its own post
            defined.update(links)
        assert sorted(defined, key=int) == [str(i) for i in range(1, 21)]
    finally:
        await http.aclose()
        await connector.stop()
        store.close()


@pytest.mark.parametrize("min_post_length", [20, 40])
async def test_a_short_uncited_answer_is_posted_with_a_note_not_refused(
    forum: FakeDiscourse, tmp_path: Path, min_post_length: int
) -> None:
    # Discourse refuses "No." (Body is too short); the asker must still get the answer
    forum.min_post_length = min_post_length
    h = await make_harness(forum, tmp_path, min_post_length=min_post_length)
    try:
        h.script([GUIDE], "No.")
        await h.deliver(
            forum.new_topic("Windows?", "Does it run on Windows 98?", category_id=PUBLIC)
        )
        posted = only_post(forum)["raw"]
        assert posted.startswith("No.\n\n")
        assert "cites no sources" in posted
        assert not footnotes(posted)[0]
    finally:
        await h.http.aclose()
        await h.connector.stop()
        h.store.close()


async def test_a_forum_without_a_minimum_gets_the_short_answer_alone(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.min_post_length = 1
    h = await make_harness(forum, tmp_path, min_post_length=1)
    try:
        h.script([GUIDE], "No.")
        await h.deliver(
            forum.new_topic("Windows?", "Does it run on Windows 98?", category_id=PUBLIC)
        )
        assert only_post(forum)["raw"] == "No."
    finally:
        await h.http.aclose()
        await h.connector.stop()
        h.store.close()
