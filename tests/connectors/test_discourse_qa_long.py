"""Discourse: a long answer split into several posts never leaves a post the forum would refuse
as too short (the last "Ok." of an answer would otherwise be lost)."""

from __future__ import annotations

from pathlib import Path

from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import resolve
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.discourse import forum_length
from tests.connectors.discourse_harness import PUBLIC, forum, make_harness
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]

GUIDE = Source(id="g", title="Install guide", url="https://docs.example/install", text="pip.")
FORUM_MINIMUM = 20


def answer_with_a_short_end(words: int) -> Answer:
    registry = SourceRegistry(["public"])
    registry.register_all([GUIDE])
    return resolve(("word " * words).strip() + " [1].\n\nOk.", registry)


def posts(answer: Answer, max_chars: int) -> list[str]:
    overrides = {"max_chars": max_chars, "min_chars": FORUM_MINIMUM}
    context = RenderContext(capabilities=capabilities_for("discourse", overrides))
    payload = render("discourse", answer, context)
    return [payload["raw"], *payload.get("continued", [])]


def test_no_continued_post_is_shorter_than_the_forum_minimum() -> None:
    # Whatever the length of the first paragraph, somewhere the last "Ok." is left alone.
    alone = 0
    for words in range(150, 200):
        raws = posts(answer_with_a_short_end(words), 1000)
        assert all(len(raw) <= 1000 for raw in raws)
        assert all(forum_length(raw) >= FORUM_MINIMUM for raw in raws), raws[1:]
        assert any("Ok." in raw for raw in raws)
        alone += len(raws) == 2 and raws[1].endswith("\n\nOk.") and "[^1]" not in raws[1]
    assert alone > 0


async def test_the_end_of_a_long_answer_reaches_the_forum(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    harness = await make_harness(forum, tmp_path, max_post_length=1000)
    budget = harness.connector._delivery.settings.max_post_length - 64  # the unique suffix
    words = next(
        n
        for n in range(150, 200)
        if (raws := posts(answer_with_a_short_end(n), budget))[-1].endswith("\n\nOk.")
        and len(raws) == 2
        and "[^1]" not in raws[1]
    )
    try:
        harness.script([GUIDE], ("word " * words).strip() + " [1].\n\nOk.")
        first = forum.new_topic("Long", "Tell me all about it.", category_id=PUBLIC)
        await harness.deliver(first)
        sent = [post["raw"] for post in forum.bot_posts()]
        assert len(sent) == 2 and sent[1].endswith("Ok.")
        assert harness.store.pending("discourse") == []
    finally:
        await harness.http.aclose()
        await harness.connector.stop()
        harness.store.close()
