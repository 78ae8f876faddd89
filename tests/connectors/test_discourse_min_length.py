"""Discourse: a forum whose "min post length" is higher than a short answer.

Discourse refuses a reply shorter than its ``min_post_length`` with 422 "Body is too short
(minimum is N characters)" (in the forum's language), counted without HTML comments. A short
answer is lengthened with a note (and, when that is not enough, its question quoted) and
lands; the minimum is kept for later replies. Driven through the connector's real httpx client
against the loopback fake forum, which enforces the minimum as Discourse counts it.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.connectors.discourse_short import lengthened
from bot.models import Source
from renderers.discourse import SHORT_NOTE
from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    footnotes,
    forum,
    opened_harness,
)
from tests.fakes.discourse_api import FakeDiscourse, counted_length

__all__ = ["forum"]

GUIDE = Source(id="g", title="Guide", url="https://d.example/g", text="Yes.")


def refused_short(forum: FakeDiscourse) -> int:
    return sum(1 for m, path, status in forum.requests if path == "/posts.json" and status == 422)


async def ask(
    h: Harness, raw: str, question: str = "Is the service able to restart by itself?"
) -> int:
    h.script([GUIDE], raw)
    post = h.forum.new_topic("Restarts", question, category_id=PUBLIC)
    await h.deliver(post)
    return int(post["topic_id"])


def replies(forum: FakeDiscourse, topic: int) -> list[str]:
    return [str(p["raw"]) for p in forum.bot_posts() if p["topic_id"] == topic]


async def test_a_one_word_answer_lands_on_a_forum_asking_for_longer_posts(
    forum: FakeDiscourse, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    forum.min_post_length = 80  # the setting is left at its default, 20
    caplog.set_level(logging.INFO)
    async with opened_harness(forum, tmp_path) as h:
        topic = await ask(h, "No.")
        [reply] = replies(forum, topic)
        assert reply.startswith("No.")
        assert counted_length(reply) >= 80
        assert "at least 80 characters" in reply and "cites no sources" in reply
        assert refused_short(forum) == 1
        assert [t.status for t in h.store.turns(f"discourse-topic-{topic}")] == ["done"]
        assert h.store.pending("discourse") == []
        advice = [r for r in caplog.records if "set discourse.min_post_length" in r.getMessage()]
        assert len(advice) == 1

        # the next short reply is lengthened at once: no second refusal, no second warning
        again = await ask(h, "Yes.", "Does it also restart after a power cut, by itself?")
        [second] = replies(forum, again)
        assert second.startswith("Yes.") and counted_length(second) >= 80
        assert refused_short(forum) == 1
        advice = [r for r in caplog.records if "set discourse.min_post_length" in r.getMessage()]
        assert len(advice) == 1


async def test_a_configured_minimum_lengthens_without_a_refusal(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.min_post_length = 100
    async with opened_harness(forum, tmp_path, min_post_length=100) as h:
        topic = await ask(h, "No.")
        [reply] = replies(forum, topic)
        assert counted_length(reply) >= 100
        assert refused_short(forum) == 0


async def test_a_refusal_in_another_language_is_read_by_its_digits(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.min_post_length = 70
    forum.too_short = "Beitrag ist zu kurz (mindestens {count} Zeichen)"
    async with opened_harness(forum, tmp_path) as h:
        topic = await ask(h, "Nein.")
        [reply] = replies(forum, topic)
        assert counted_length(reply) >= 70


async def test_the_question_is_quoted_when_a_note_is_not_enough(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.min_post_length = 220
    question = (
        "@bob and I wonder: does the service restart by itself after it crashed, or does "
        "somebody have to log in and start it again by hand every single time it happens?"
    )
    async with opened_harness(forum, tmp_path) as h:
        topic = await ask(h, "No.", question)
        [reply] = replies(forum, topic)
        assert counted_length(reply) >= 220
        assert reply.startswith("> ")
        assert "No." in reply
        # the quote mentions nobody again
        assert "@bob" not in reply and "@\u200bbob" in reply


async def test_a_cited_short_answer_keeps_its_footnotes(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.min_post_length = 120
    async with opened_harness(forum, tmp_path) as h:
        topic = await ask(h, "Yes [1].")
        [reply] = replies(forum, topic)
        assert counted_length(reply) >= 120
        refs, links = footnotes(reply)
        assert refs == ["1"] and links["1"] == [("Guide", "https://d.example/g")]
        # the note stands before the definitions, never inside one
        assert reply.index("at least 120 characters") < reply.index("[^1]:")


async def test_a_minimum_nothing_honest_can_reach_ends_the_reply(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.min_post_length = 1000
    async with opened_harness(forum, tmp_path) as h:
        topic = await ask(h, "No.", "Restart by itself?")
        assert replies(forum, topic) == []
        assert [t.status for t in h.store.turns(f"discourse-topic-{topic}")] == ["failed"]
        assert h.store.pending("discourse") == []
        assert refused_short(forum) == 1  # not sent again: nothing honest makes it long enough


@pytest.mark.parametrize("minimum", [1, 20, 60, 120])
def test_lengthened_reaches_the_minimum_as_discourse_counts(minimum: int) -> None:
    raw = f"No.\n\n{SHORT_NOTE}" if minimum > 3 else "No."
    longer = lengthened(raw, minimum, "Does the service restart on its own after a crash?")
    assert longer is not None and counted_length(longer) >= minimum
    assert longer.count("short answer") <= 1  # the renderer's note is extended, not repeated
