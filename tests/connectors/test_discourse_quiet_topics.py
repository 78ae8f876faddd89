"""Discourse: a new topic the knowledge base has nothing on gets no reply.

With ``discourse.answer_new_topics`` every new topic in a listed category is asked, and a topic
that is no question ("General chat: Hello everyone") got "I could not find anything about that
in the knowledge base.", which bumps the topic for everyone watching the category. Such a topic
now gets no post (one INFO line says why) while its turn is stored as answered without sources,
so ``citecast report`` still counts it. A mention or a reply to the bot (and a new topic that
mentions it) addressed the bot and is answered, found or not; so is every new topic with
``discourse.reply_to_new_topics_when_not_found: true``, and any answer that does not say it
found nothing ("No.", cited or not). Driven through the connector's real httpx client against
the loopback fake forum.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.usage_report import build_report
from tests.connectors.discourse_harness import (
    GUIDE,
    PUBLIC,
    Harness,
    forum,
    harness,
    only_post,
    opened_harness,
)
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

TITLE, BODY = "General chat", "Hello everyone, this is a general topic."
ASKED = f"{TITLE}\n\n{BODY}"


def report_row(h: Harness) -> tuple[int, int, int, int]:
    """(asked, cited, without sources, failed) of the discourse channel in ``citecast report``."""
    report = build_report(h.store, 0.0, 1.0)
    [usage] = [u for u in report.channels if u.channel == "discourse"]
    return usage.asked, usage.cited, usage.without_sources, usage.failed


async def test_a_new_topic_with_nothing_found_gets_no_reply(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.script([], NOT_FOUND)
    topic = harness.forum.new_topic(TITLE, BODY, category_id=PUBLIC)
    with caplog.at_level(logging.INFO, logger="bot.connectors.discourse_answer"):
        response = await harness.deliver(topic)
    assert response.json()["accepted"] == "new_topic"
    assert [question for question, _, _ in harness.answerer.calls] == [ASKED]
    assert harness.forum.bot_posts() == []
    assert harness.store.pending("discourse") == []
    # the question is done: the outbox worker does not ask it again
    question = harness.store.outbox_item(f"discourse-question-{topic['id']}")
    assert question is not None and question.status == "sent"
    [turn] = harness.store.turns(f"discourse-topic-{topic['topic_id']}")
    assert (turn.question, turn.status) == (ASKED, "done")
    assert report_row(harness) == (1, 0, 1, 0)
    assert build_report(harness.store, 0.0, 1.0).unanswered == ((" ".join(ASKED.split()), 1),)
    [line] = [r for r in caplog.records if "not answered" in r.getMessage()]
    assert line.levelno == logging.INFO
    assert f"discourse topic {topic['topic_id']} post {topic['id']}" in line.getMessage()
    assert "discourse.reply_to_new_topics_when_not_found" in line.getMessage()


@pytest.mark.parametrize(
    "raw",
    [
        "I couldn’t find anything about meetups in the knowledge base.",
        "Sorry, I was unable to find that in the documents.",
        "There is no relevant information about the Berlin meetup.",
    ],
)
async def test_a_model_saying_it_found_nothing_posts_nothing(harness: Harness, raw: str) -> None:
    harness.script([GUIDE], raw)  # a source was found, but the answer cites none
    topic = harness.forum.new_topic(
        "Berlin meetup", "Anyone going to the Berlin meetup next week?", category_id=PUBLIC
    )
    await harness.deliver(topic)
    assert harness.forum.bot_posts() == []
    assert report_row(harness) == (1, 0, 1, 0)


@pytest.mark.parametrize("raw", ["No.", "If pip cannot find the package, upgrade pip first."])
async def test_an_uncited_answer_that_found_something_is_posted(harness: Harness, raw: str) -> None:
    harness.script([GUIDE], raw)
    await harness.deliver(
        harness.forum.new_topic("Windows?", "Does it run on 98?", category_id=PUBLIC)
    )
    assert raw in only_post(harness.forum)["raw"]


async def test_a_new_topic_with_an_answer_is_answered(harness: Harness) -> None:
    topic = harness.forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    await harness.deliver(topic)
    assert "Install with pip" in only_post(harness.forum)["raw"]
    assert report_row(harness) == (1, 1, 0, 0)


async def test_a_new_topic_that_mentions_the_bot_is_told_nothing_was_found(
    harness: Harness,
) -> None:
    harness.script([], NOT_FOUND)
    topic = harness.forum.new_topic(TITLE, f"@citecast {BODY}", category_id=PUBLIC)
    await harness.deliver(topic)
    assert NOT_FOUND in only_post(harness.forum)["raw"]


async def test_a_mention_with_nothing_found_is_still_answered(harness: Harness) -> None:
    topic = harness.forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    await harness.deliver(topic)
    harness.script([], NOT_FOUND)
    mention = harness.forum.user_posts(
        int(topic["topic_id"]), "@citecast does it run on a toaster?", username="bob"
    )
    await harness.deliver(mention)
    posts = harness.forum.bot_posts()
    assert len(posts) == 2 and NOT_FOUND in posts[1]["raw"]


async def test_a_reply_to_the_bot_with_nothing_found_is_still_answered(harness: Harness) -> None:
    topic = harness.forum.new_topic("Install", "How do I install it?", category_id=PUBLIC)
    await harness.deliver(topic)
    harness.script([], NOT_FOUND)
    reply = harness.forum.user_posts(
        int(topic["topic_id"]), "And on a toaster, does it run?", reply_to=2
    )
    await harness.deliver(reply)
    posts = harness.forum.bot_posts()
    assert len(posts) == 2 and NOT_FOUND in posts[1]["raw"]


async def test_the_operator_may_have_new_topics_told_nothing_was_found(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path, reply_to_new_topics_when_not_found=True) as h:
        h.script([], NOT_FOUND)
        await h.deliver(forum.new_topic(TITLE, BODY, category_id=PUBLIC))
        assert NOT_FOUND in only_post(forum)["raw"]
        assert report_row(h) == (1, 0, 1, 0)


@pytest.fixture(scope="module")
def sample_assistant(tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    """The built-in answerer over the sample knowledge base (examples/)."""
    base = tmp_path_factory.mktemp("discourse-quiet-kb")
    settings = Settings.model_validate({"index": {"path": str(base / "index.db")}})
    assert ingest([EXAMPLES], settings.index).indexed > 0
    return Assistant(settings, KnowledgeIndex(settings.index.path))


@pytest.mark.parametrize(
    ("title", "body"),
    [
        ("General chat", "Hello everyone, this is a general topic."),
        ("Berlin meetup", "Anyone going to the Berlin meetup next week?"),
    ],
)
async def test_topics_that_ask_the_sample_nothing_get_no_reply(
    harness: Harness, sample_assistant: Assistant, title: str, body: str
) -> None:
    # the QA findings, with the real built-in answerer
    harness.connector.services.assistant = sample_assistant
    await harness.deliver(harness.forum.new_topic(title, body, category_id=PUBLIC))
    assert harness.forum.bot_posts() == []
    assert report_row(harness) == (1, 0, 1, 0)
    question = harness.forum.new_topic(
        "Widget", "How do I embed the chat in my site?", category_id=PUBLIC
    )
    await harness.deliver(question)
    assert "widget.js" in only_post(harness.forum)["raw"]
