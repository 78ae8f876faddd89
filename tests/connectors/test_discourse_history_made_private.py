"""Discourse topic history leaves out a reply of the bot's its readers may no longer see.

The QA steps over the real connector (httpx against the fake forum) and the built-in answerer:
ingest a public file, open a topic asking about it, ask a follow-up by mention, make the file
private (front matter ``audience:`` or an ``audience_rules`` glob, then ``citecast ingest``) or
drop it from the index, and ask again. The reply stays in the topic, but the stored answer it
posted cites the file, and the index as it is now decides, for the audience the topic's answer
is computed for, as for the web, email and Discord
(``bot.connectors.web_turn_page.visible_answer``): the next answer's history must not carry
what the file said. A reply its readers may still see stays history.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from bot.assistant.assistant import Assistant
from bot.connectors.discourse import DiscourseConnector
from bot.connectors.discourse_topic import history_from_posts
from bot.connectors.discourse_topic_answers import unreadable_replies
from bot.knowledge import ingest
from bot.models import Answer, Citation, Exchange, Source
from bot.runtime import Services
from bot.store import Store
from tests.connectors.discourse_harness import (
    PUBLIC,
    SECRET,
    STAFF,
    RecordingSleep,
    forum,
    settings_for,
)
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import (
    PUBLIC_TEXT,
    QUESTION,
    kb_with_roadmap,
)
from tests.connectors.web.test_web_files_made_private import SECRET as BOARD_ONLY
from tests.connectors.web.test_web_share_made_private import MAIL, RecordingAnswerer, make_gone
from tests.fakes.discourse_api import FakeDiscourse, webhook_request

__all__ = ["forum"]

FOLLOW_UP = "Who answers the help desk mail?"


@dataclass
class Forum:
    """The fake forum, the connector's webhook endpoint and the answerer's histories."""

    fake: FakeDiscourse
    http: httpx.AsyncClient
    connector: DiscourseConnector
    answerer: RecordingAnswerer

    async def deliver(self, post: dict[str, Any]) -> None:
        body, headers = webhook_request(post, SECRET)
        response = await self.http.post("/discourse/webhook", content=body, headers=headers)
        assert response.status_code == 200, response.text
        await self.connector.drain()

    def history(self) -> tuple[Exchange, ...]:
        return self.answerer.histories[-1]


@asynccontextmanager
async def opened(fake: FakeDiscourse, tmp_path: Path) -> AsyncIterator[Forum]:
    """A connector whose built-in answerer reads ``tmp_path``'s index."""
    settings = settings_for(fake, tmp_path).model_copy(
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


async def converse(f: Forum, category: int) -> int:
    """A new topic asking about the roadmap, then a follow-up about mail; returns the topic."""
    first = f.fake.new_topic("Depot plans", QUESTION, category_id=category)
    await f.deliver(first)
    topic = int(first["topic_id"])
    await f.deliver(f.fake.user_posts(topic, f"@citecast {MAIL}"))
    # while the file is public, the model has the roadmap reply as history
    (roadmap,) = f.history()
    assert "Leipzig" in roadmap.answer
    return topic


def told(history: tuple[Exchange, ...]) -> str:
    return "\n".join(f"{e.question}\n{e.answer}" for e in history)


@pytest.mark.parametrize("how", ["front matter", "audience rule", "unreadable", "deleted"])
async def test_a_reply_citing_a_file_no_longer_public_leaves_the_topic_history(
    forum: FakeDiscourse, tmp_path: Path, how: str
) -> None:
    kb = kb_with_roadmap(tmp_path, "plans" if how == "audience rule" else "")
    ingest([kb], make_settings(tmp_path).index)  # where make_gone re-ingests
    async with opened(forum, tmp_path) as f:
        topic = await converse(f, PUBLIC)
        make_gone(kb, tmp_path, how)
        await f.deliver(f.fake.user_posts(topic, f"@citecast {FOLLOW_UP}"))
        # the roadmap reply is left out with the question it answered (both stay in the
        # topic); the reply after it, citing only the public welcome page, is still history
        history = f.history()
        assert [e.question for e in history] == [f"@alice: @citecast {MAIL}"]
        assert "help desk answers mail" in history[0].answer
        assert "Leipzig" not in told(history)
        assert BOARD_ONLY not in told(history)


async def test_the_topic_history_follows_its_categorys_audience(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    kb = kb_with_roadmap(tmp_path)
    index = make_settings(tmp_path).index
    ingest([kb], index)
    async with opened(forum, tmp_path) as f:
        staff_topic = await converse(f, STAFF)
        public_topic = await converse(f, PUBLIC)
        staff_only = f"---\naudience: [staff]\n---\n{PUBLIC_TEXT}\n{BOARD_ONLY}\n"
        (kb / "roadmap.md").write_text(staff_only, encoding="utf-8")
        ingest([kb], index)

        await f.deliver(f.fake.user_posts(staff_topic, f"@citecast {FOLLOW_UP}"))
        # the staff category's readers may still read it: the roadmap reply stays
        assert len(f.history()) == 2 and "Leipzig" in f.history()[0].answer

        await f.deliver(f.fake.user_posts(public_topic, f"@citecast {FOLLOW_UP}"))
        assert len(f.history()) == 1 and "Leipzig" not in told(f.history())


STAFF_NOTE = Source(
    id="plan", title="Plan", url="https://intranet.example/plan", audience=("staff",)
)


def test_a_reply_without_reply_to_is_judged_by_the_posts_before_it(tmp_path: Path) -> None:
    # a forum that leaves ``reply_to_post_number`` out: the people's posts since the bot's last
    # reply are what it answered, and the later parts of a long reply go with the first
    store = Store(tmp_path / "citecast.db")
    try:
        private = Answer(
            text="The plan [1].", citations=(Citation(n=1, source_number=1, source=STAFF_NOTE),)
        )
        store.add_turn("discourse-topic-1", "discourse", "What is the plan?", private.to_json())
        store.add_turn("discourse-topic-1", "discourse", "And now?", {"text": "Nothing new."})
        posts: list[dict[str, Any]] = [
            {"post_number": 1, "username": "alice", "raw": "@citecast What is the plan?"},
            {"post_number": 2, "username": "citecast", "raw": "The plan, part 1."},
            {"post_number": 3, "username": "citecast", "raw": "The plan, part 2."},
            {"post_number": 4, "username": "bob", "raw": "@citecast And now?"},
            {"post_number": 5, "username": "citecast", "raw": "Nothing new."},
        ]
        turns = store.turns("discourse-topic-1")
        hidden = unreadable_replies(
            posts, turns, frozenset({"public"}), None, username="citecast", title="", limit=4000
        )
        assert hidden == {2, 3}
        # the staff channel's readers may see it
        staff = frozenset({"public", "staff"})
        args: dict[str, Any] = {"username": "citecast", "title": "", "limit": 4000}
        assert unreadable_replies(posts, turns, staff, None, **args) == frozenset()
        history = history_from_posts(posts, "citecast", 6, left_out=hidden)
        assert [(e.question, e.answer) for e in history] == [
            ("@bob: @citecast And now?", "Nothing new.")
        ]
    finally:
        store.close()
