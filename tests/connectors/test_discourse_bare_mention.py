"""Discourse: a bare "@citecast" (no question) gets an invitation to ask, not a search for
the topic's title ("I could not find anything…"); configurable like Discord's."""

from __future__ import annotations

from pathlib import Path

from tests.connectors.discourse_harness import PUBLIC, forum, only_post, opened_harness
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]


async def test_a_bare_mention_is_invited_to_ask(forum: FakeDiscourse, tmp_path: Path) -> None:
    async with opened_harness(forum, tmp_path, answer_new_topics=False) as h:
        topic = forum.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
        await h.deliver(topic)
        bare = forum.user_posts(topic["topic_id"], "@citecast ?")
        response = await h.deliver(bare)
        assert response.json()["accepted"] == "mention"
        reply = only_post(forum)
    assert reply["raw"].startswith("Ask me a question after mentioning me.")
    assert reply["reply_to_post_number"] == bare["post_number"]
    assert h.answerer.calls == []


async def test_the_invitation_is_configurable(forum: FakeDiscourse, tmp_path: Path) -> None:
    async with opened_harness(
        forum,
        tmp_path,
        answer_new_topics=False,
        empty_question_message="What would you like to know about the docs?",
    ) as h:
        topic = forum.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
        await h.deliver(topic)
        await h.deliver(forum.user_posts(topic["topic_id"], "@citecast"))
        assert only_post(forum)["raw"].startswith("What would you like to know about the docs?")


async def test_no_message_means_no_reply(forum: FakeDiscourse, tmp_path: Path) -> None:
    async with opened_harness(
        forum, tmp_path, answer_new_topics=False, empty_question_message=""
    ) as h:
        topic = forum.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
        await h.deliver(topic)
        await h.deliver(forum.user_posts(topic["topic_id"], "@citecast"))
        assert forum.bot_posts() == [] and h.answerer.calls == []
        assert h.store.pending("discourse") == []


async def test_a_mention_with_a_question_is_answered(forum: FakeDiscourse, tmp_path: Path) -> None:
    async with opened_harness(forum, tmp_path, answer_new_topics=False) as h:
        topic = forum.new_topic("Setup", "Install fails on Linux", category_id=PUBLIC)
        await h.deliver(topic)
        await h.deliver(forum.user_posts(topic["topic_id"], "@citecast how do I install?"))
        assert "Install with pip" in only_post(forum)["raw"]
