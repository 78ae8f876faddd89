"""Discourse history judges each reply of the bot's by the turn recorded for the post it answers.

Over httpx against the fake forum and the built-in answerer: a reply citing a file made private
since must leave the topic's history even when matching it by its question's text fails,
because the asker edited the question after it was answered, because the question post is
outside the history's window (the window starts at the reply), or because the topic's
conversation holds more turns than a fixed number of the latest. Before, such a reply stayed
history, unjudged. A topic whose answers its readers may all see keeps every reply.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from bot.assistant.assistant import Assistant
from bot.connectors.discourse import DiscourseConnector
from bot.knowledge import ingest
from bot.runtime import Services
from bot.store import Store
from tests.connectors.discourse_harness import PUBLIC, RecordingSleep, forum, settings_for
from tests.connectors.test_discourse_history_made_private import (
    FOLLOW_UP,
    Forum,
    converse,
    told,
)
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import QUESTION, kb_with_roadmap
from tests.connectors.web.test_web_share_made_private import MAIL, RecordingAnswerer, make_gone
from tests.fakes.discourse_api import FakeDiscourse
from tests.fakes.discourse_wire import cook

__all__ = ["forum"]


@asynccontextmanager
async def opened(fake: FakeDiscourse, tmp_path: Path, history_posts: int) -> AsyncIterator[Forum]:
    """A connector reading ``history_posts`` posts of history, its answerer ``tmp_path``'s
    index."""
    settings = settings_for(fake, tmp_path, history_posts=history_posts).model_copy(
        update={"index": make_settings(tmp_path).index}
    )
    store = Store(settings.store.path)
    answerer = RecordingAnswerer(Assistant.from_settings(settings))
    connector = DiscourseConnector(Services(settings, store, answerer), sleep=RecordingSleep())
    app = Starlette(routes=connector.routes())
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://citecast")
    try:
        yield Forum(fake, http, connector, answerer)
    finally:
        await http.aclose()
        await connector.stop()
        store.close()


def edit_question(fake: FakeDiscourse, topic: int) -> None:
    """The asker fixes a typo in the topic's first post, after the bot answered it."""
    first: dict[str, Any] = fake.topics[topic].posts[0]
    assert QUESTION in first["raw"]
    first["raw"] = f"{first['raw']} (typo fixed)"
    first["cooked"] = cook(first["raw"])


@pytest.mark.parametrize(
    ("history_posts", "edited"),
    [
        (20, True),  # the asker edited the question after the answer
        # three posts before the follow-up: the roadmap reply, the mail question and its reply
        (3, False),  # the question fell out of the history's window
    ],
    ids=["question edited since", "question outside the window"],
)
async def test_a_reply_no_longer_matched_by_its_question_leaves_the_history(
    forum: FakeDiscourse, tmp_path: Path, history_posts: int, edited: bool
) -> None:
    kb = kb_with_roadmap(tmp_path)
    ingest([kb], make_settings(tmp_path).index)
    async with opened(forum, tmp_path, history_posts) as f:
        topic = await converse(f, PUBLIC)
        if edited:
            edit_question(forum, topic)
        make_gone(kb, tmp_path, "front matter")
        await f.deliver(f.fake.user_posts(topic, f"@citecast {FOLLOW_UP}"))
        history = f.history()
        assert [e.question for e in history] == [f"@alice: @citecast {MAIL}"]
        assert "Leipzig" not in told(history)


async def test_a_reply_older_than_the_latest_fifty_turns_leaves_the_history(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    kb = kb_with_roadmap(tmp_path)
    ingest([kb], make_settings(tmp_path).index)
    async with opened(forum, tmp_path, 200) as f:
        topic = await converse(f, PUBLIC)
        store = f.connector.services.store
        for n in range(55):  # answered by an earlier citecast, before replies were recorded
            asked = f.fake.user_posts(topic, f"@citecast Question {n}?", username="bob")
            store.add_turn(f"discourse-topic-{topic}", "discourse", f"Question {n}?", {"text": "A"})
            f.fake.user_posts(
                topic, f"Answer {n}.", username="citecast", reply_to=asked["post_number"]
            )
        make_gone(kb, tmp_path, "front matter")
        await f.deliver(f.fake.user_posts(topic, f"@citecast {FOLLOW_UP}"))
        history = f.history()
        assert "Leipzig" not in told(history)
        assert f"@alice: @citecast {MAIL}" in [e.question for e in history]


async def test_a_topic_whose_answers_are_all_readable_keeps_every_reply(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    kb = kb_with_roadmap(tmp_path)
    ingest([kb], make_settings(tmp_path).index)
    async with opened(forum, tmp_path, 3) as f:
        topic = await converse(f, PUBLIC)
        edit_question(forum, topic)
        await f.deliver(f.fake.user_posts(topic, f"@citecast {FOLLOW_UP}"))
        # the roadmap reply, its question outside the window, stays with the mail exchange
        history = f.history()
        assert len(history) == 2 and "Leipzig" in history[0].answer
