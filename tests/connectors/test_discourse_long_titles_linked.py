"""Discourse small posts: a source with a long title keeps its link when more posts are allowed.

At ``max_post_length: 300`` a source's fullest definition (a 120-character title, its link, page
and section) is longer than a "More sources" post can hold. The connector used to choose between
that definition and the title alone, so the source was shown "(link left out to fit the post)"
although the forum took further replies; it is now listed with a shorter title and its link.
Driven through the connector's real client against the loopback fake forum.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import Source
from renderers.discourse import LINK_LEFT_OUT
from renderers.discourse_spill import SPILL_NOTE, spill
from tests.connectors.discourse_harness import PUBLIC, Harness, forum, opened_harness
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]

LONG_TITLED = [
    Source(
        id=f"t{n}",
        title=f"Configuration reference for Linux servers behind proxies, chapter {n}: install,"
        " upgrade and restart the service safely",
        url=f"https://docs.example.org/reference/chapter-{n}/install",
        page=4,
        section="Setup > Linux",
        text="Restarts on its own.",
    )
    for n in range(1, 4)
]
ONE_SENTENCE = "After the install the service restarts on its own behind the proxy [1][2][3]."


async def ask(h: Harness, sources: list[Source], text: str) -> list[str]:
    h.script(sources, text)
    await h.deliver(h.forum.new_topic("Restart?", "Does it restart?", category_id=PUBLIC))
    assert h.store.pending("discourse") == []
    return [str(p["raw"]) for p in h.forum.bot_posts()]


@pytest.mark.parametrize("limit", [300, 400])
async def test_long_titles_are_listed_with_their_links(
    forum: FakeDiscourse, tmp_path: Path, limit: int
) -> None:
    forum.max_post_length = limit
    forum.max_consecutive_replies = 0
    async with opened_harness(
        forum, tmp_path, max_post_length=limit, max_consecutive_replies=0
    ) as h:
        posts = await ask(h, LONG_TITLED, ONE_SENTENCE)
    assert posts[0].startswith("After the install the service restarts")
    assert all(len(post) <= limit for post in posts)
    joined = "\n".join(posts)
    assert LINK_LEFT_OUT.strip() not in joined
    for source in LONG_TITLED:
        assert f"]({source.url})" in joined, source.url


HOSTILE = "Guide [beta] (draft) | *bold* _it_ <script>"


async def test_a_title_longer_than_a_post_is_shortened_not_unlinked(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    sources = [
        Source(id="a", title="Intro", url="https://docs.example.org/intro", text="."),
        Source(id="b", title="x" * 500, url="https://docs.example.org/b", text="."),
        Source(id="c", title=HOSTILE, url="https://docs.example.org/a\\b/8", page=3, text="."),
        # a link longer than any post: only this one shows its title alone
        Source(id="d", title=HOSTILE, url="https://docs.example.org/" + "l" * 3000, text="."),
    ]
    text = (
        "Word install word *x* 日本語 install word *x* word [1]. "
        "*x* *x* snake_case snake_case *x* 日本語 install *x* [2][3][4]."
    )
    forum.max_post_length = 300
    forum.max_consecutive_replies = 0
    async with opened_harness(forum, tmp_path, max_post_length=300, max_consecutive_replies=0) as h:
        posts = await ask(h, sources, text)
    assert all(len(post) <= 300 for post in posts)
    joined = "\n".join(posts)
    assert "](https://docs.example.org/intro)" in joined
    assert "](https://docs.example.org/b)" in joined
    assert "](https://docs.example.org/a%5Cb/8)" in joined
    assert joined.count(LINK_LEFT_OUT.strip()) == 1


def test_a_shorter_definition_with_the_link_comes_before_the_title_alone() -> None:
    url = "https://d.example/reference/chapter-1/install"
    rich = {1: f"[{'Long title words ' * 9}]({url}), p. 4, Setup \\> Linux"}
    short = f"[Long title words…]({url})"
    alone = f"Long title words…{LINK_LEFT_OUT}"
    shorter = {1: [short, alone]}
    # room for the shorter definition in the post: it stays there, linked
    raw = f"Restarts on its own [^1].\n\n[^1]: {alone}"
    assert spill(raw, 180, rich, shorter=shorter, relink=True) == [
        f"Restarts on its own [^1].\n\n[^1]: {short}"
    ]
    # without the shorter definitions only the title fits (the old behaviour)
    assert spill(raw, 180, rich, relink=True) == [raw]
    # no room for it in the post: listed after it, linked
    body = "The service restarts on its own behind the proxy after the install is done [^1]."
    head, listed = spill(f"{body}\n\n[^1]: {alone}", 150, rich, shorter=shorter, relink=True)
    assert head == body.replace("[^1]", "\\[1\\]")
    assert listed == f"{SPILL_NOTE}\n\n- \\[1\\] {short}"
