"""Discourse small posts: an answer lists each source once, and no part is taken for another.

Three sentences each citing the same four sources at ``max_post_length: 300`` used to list the
four sources again after each sentence: the forum refused the repeated "More sources" posts as
"too similar to what you recently posted", and the check for a lost response then found the
first list (a post of the same answer's earlier part) and skipped the part as "already posted".
Now a source is listed once per answer; a part that reads the same as an earlier one carries an
invisible mark; and the lost-response check never takes the answer's first part for a later
one. Driven through the connector's real client against the loopback fake forum.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.connectors.discourse_landed import already_posted, told_apart
from bot.models import Source
from renderers.discourse_spill import SPILL_NOTE, spill_posts
from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    forum,
    harness,
    opened_harness,
    outbox_empty,
)
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]

REPEATED = [
    Source(
        id=f"t{n}",
        title=f"Configuration reference for Linux servers behind proxies, chapter {n}",
        url=f"https://docs.example.org/reference/chapter-{n}/install",
        page=4,
        text="Restarts.",
    )
    for n in range(1, 5)
]
THREE_SENTENCES = " ".join(
    f"Sentence {word} says the service restarts after the install behind the proxy [1][2][3][4]."
    for word in ("one", "two", "three")
)


def statuses(forum: FakeDiscourse) -> list[int]:
    return [status for _, path, status in forum.requests if path == "/posts.json"]


def listed_numbers(posts: list[str]) -> list[int]:
    return [int(n) for post in posts for n in re.findall(r"^- \\\[(\d+)\\\] ", post, re.M)]


async def test_a_source_cited_again_is_not_listed_again(
    forum: FakeDiscourse, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    forum.max_post_length = 300
    forum.max_consecutive_replies = 0
    async with opened_harness(forum, tmp_path, max_post_length=300, max_consecutive_replies=0) as h:
        h.script(REPEATED, THREE_SENTENCES)
        with caplog.at_level(logging.INFO, logger="bot"):
            await h.deliver(h.forum.new_topic("Restart?", "Does it restart?", category_id=PUBLIC))
            await outbox_empty(h)
        posts = [str(p["raw"]) for p in h.forum.bot_posts()]
    assert 422 not in statuses(forum)
    assert "already posted" not in caplog.text
    assert len(posts) == len(set(posts))
    listed = listed_numbers(posts)
    assert listed and len(listed) == len(set(listed))  # a source is listed once at most
    joined = "\n".join(posts)
    for source in REPEATED:
        assert f"]({source.url})" in joined
    for word in ("one", "two", "three"):
        assert f"Sentence {word} says" in joined
    assert all(len(post) <= 300 for post in posts)


def test_a_list_made_before_drops_what_an_earlier_post_now_lists() -> None:
    # composing relinks posts already spilled: a post before a list may now list its sources
    rich = {n: f"[Part {n}](https://d.example/{'y' * 40}/{n})" for n in (1, 2)}
    claim = "The settings that the service reads at each restart are all in the notes [^1][^2]."
    first = f"{claim}\n\n[^1]: Part 1 (link left out)\n[^2]: Part 2 (link left out)"
    again = "Again \\[1\\]\\[2\\]."
    spilled_before = f"{SPILL_NOTE}\n\n- \\[1\\] {rich[1]}\n- \\[2\\] {rich[2]}"
    posts = spill_posts([first, again, spilled_before], 150, rich, relink=True)
    assert listed_numbers(posts) == [1, 2]
    assert posts[0] == claim.replace("[^1][^2]", "\\[1\\]\\[2\\]")
    assert posts[-1] == again  # the list made before lists nothing new: it is not posted


async def test_two_parts_that_read_the_same_both_post(forum: FakeDiscourse, tmp_path: Path) -> None:
    paragraph = "The service restarts on its own after the install, behind the proxy. " * 3
    forum.max_post_length = 300
    forum.max_consecutive_replies = 0
    async with opened_harness(forum, tmp_path, max_post_length=300, max_consecutive_replies=0) as h:
        h.script(REPEATED, f"{paragraph.strip()}\n\n{paragraph.strip()}")
        await h.deliver(h.forum.new_topic("Restart?", "Does it restart?", category_id=PUBLIC))
        await outbox_empty(h)
        posts = [str(p["raw"]) for p in h.forum.bot_posts()]
    assert 422 not in statuses(forum)
    assert len(posts) == 2 and posts[0] == paragraph.strip()
    assert posts[1].startswith(paragraph.strip()) and posts[1] != posts[0]


def test_told_apart_marks_only_a_repeat_and_only_within_the_limit() -> None:
    assert told_apart(["a b", "c", "ab", "c"], 100) == [
        "a b",
        "c",
        "ab\n\n<!-- part 3 -->",
        "c\n\n<!-- part 4 -->",
    ]
    assert told_apart(["same", "same"], 10) == ["same", "same"]


async def test_a_later_part_refused_as_too_similar_to_the_first_still_posts(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    # part 2 reads like part 1, which landed: the forum refuses it as "too similar", and the
    # check for a lost response found part 1 and skipped part 2 as "already posted"
    forum = harness.forum
    question = forum.new_topic("Restart?", "Does it restart?", category_id=PUBLIC)
    topic_id = question["topic_id"]
    body = "The service restarts on its own after the install."
    client = harness.connector._ensure_client()
    await client.create_post(topic_id, body, 1)
    assert not await already_posted(client, "citecast", topic_id, 1, (body,), 2)
    assert await already_posted(client, "citecast", topic_id, 1, (body,), 1)
    payload = {
        "topic_id": topic_id,
        "raw": body,
        "reply_to_post_number": 1,
        "post_id": question["id"],
        "part": 2,
        "audience": ["public"],
    }
    item_id = harness.store.enqueue("discourse", payload, item_id=f"discourse-{question['id']}-2")
    with caplog.at_level(logging.INFO, logger="bot"):
        await harness.connector._delivery.deliver(item_id, payload, retrying=False)
    replies = [str(p["raw"]) for p in forum.bot_posts()]
    assert statuses(forum)[-2:] == [422, 200]
    assert len(replies) == 2 and replies[1].startswith(body) and replies[1] != body
    assert "already posted" not in caplog.text
    # once part 2 is in the topic, it is found
    assert await already_posted(client, "citecast", topic_id, 1, (body, replies[1]), 2)
