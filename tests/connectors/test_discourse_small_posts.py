"""Discourse at its smallest post limit: every answer posts, and no source loses its link.

``discourse.max_post_length: 300`` is the documented floor. A sentence citing more sources
than a post can define used to drop the whole answer ("cannot fit the answer into 236
characters"); sources shown without their links ("(link left out to fit the post)") to fit
one post kept a short link from readers even where more posts were allowed. Driven through
the connector's real client against the loopback fake forum, which refuses posts over its
limit.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.errors import RenderError
from bot.models import Source
from renderers.discourse import LINK_LEFT_OUT
from renderers.discourse_spill import SPILL_NOTE, spill
from tests.connectors.discourse_harness import PUBLIC, Harness, forum, opened_harness
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]


def sources(count: int, url_length: int) -> list[Source]:
    return [
        Source(id=f"s{n}", title=f"Configuration notes part {n}", text="Notes.",
               url=f"https://docs.example/{'x' * url_length}/{n}")
        for n in range(1, count + 1)
    ]  # fmt: skip


def one_sentence(count: int) -> str:
    return (
        "The settings are described in the notes "
        + "".join(f"[{n}]" for n in range(1, count + 1))
        + "."
    )


async def ask(h: Harness, srcs: list[Source], raw: str) -> list[str]:
    h.script(srcs, raw)
    await h.deliver(h.forum.new_topic("Settings", "Where are the settings described?",
                                      category_id=PUBLIC))  # fmt: skip
    return [str(p["raw"]) for p in h.forum.bot_posts()]


@pytest.mark.parametrize("count", [4, 6])
async def test_a_sentence_citing_many_sources_posts_at_the_smallest_limit(
    forum: FakeDiscourse, tmp_path: Path, count: int
) -> None:
    forum.max_post_length = 300
    forum.max_consecutive_replies = 0
    async with opened_harness(forum, tmp_path, max_post_length=300, max_consecutive_replies=0) as h:
        srcs = sources(count, 20)
        posts = await ask(h, srcs, one_sentence(count))
        assert h.store.pending("discourse") == []
    assert posts and all(len(raw) <= 300 for raw in posts)
    assert posts[0].startswith("The settings are described in the notes")
    joined = "\n".join(posts)
    for source in srcs:
        assert f"({source.url})" in joined  # every source, with its link
    assert all(raw.startswith(SPILL_NOTE) for raw in posts[1:])


async def test_links_are_kept_when_more_posts_are_allowed(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.max_post_length = 500
    forum.max_consecutive_replies = 0
    async with opened_harness(forum, tmp_path, max_post_length=500, max_consecutive_replies=0) as h:
        srcs = sources(6, 100)
        posts = await ask(h, srcs, one_sentence(6))
    joined = "\n".join(posts)
    assert LINK_LEFT_OUT.strip() not in joined
    assert all(len(post) <= 500 for post in posts)
    for source in srcs:
        assert f"({source.url})" in joined


def test_a_post_that_fits_is_left_alone() -> None:
    raw = f"Text [^1].\n\n[^1]: Guide{LINK_LEFT_OUT}"
    rich = {1: "[Guide](https://d.example/g)"}
    assert spill(raw, 300, rich) == [raw]


def test_spilled_references_become_plain_numbers() -> None:
    rich = {n: f"[Part {n}](https://d.example/{'y' * 60}/{n})" for n in range(1, 4)}
    raw = "Claim [^1][^2][^3].\n\n" + "\n".join(f"[^{n}]: {rich[n]}" for n in range(1, 4))
    head, *rest = spill(raw, 200, rich)
    assert head.startswith("Claim [^1]\\[2\\]\\[3\\].")
    assert re.findall(r"\[\^(\d+)\]:", head) == ["1"]
    assert all(len(post) <= 200 for post in [head, *rest])
    assert "\n".join(rest).count("- \\[") == 2


def test_a_body_longer_than_the_post_is_refused() -> None:
    with pytest.raises(RenderError):
        spill("word " * 100 + "[^1].\n\n[^1]: Guide", 200, {})


async def test_sources_added_to_the_previous_post_carry_no_second_note(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    # the forum's 3 replies in a row: the 4th part is added to the 3rd by an edit
    forum.max_post_length = 300
    async with opened_harness(forum, tmp_path, max_post_length=300) as h:
        srcs = sources(6, 40)
        posts = await ask(h, srcs, one_sentence(6))
    assert len(posts) == 3 and all(len(raw) <= 300 for raw in posts)
    assert [raw.count(SPILL_NOTE) for raw in posts] == [0, 1, 1]
    joined = "\n".join(posts)
    for source in srcs[:4]:
        assert f"({source.url})" in joined
