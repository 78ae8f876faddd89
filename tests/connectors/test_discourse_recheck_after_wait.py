"""A Discourse reply is checked again after every wait of the client's retries, before it is sent.

Found by a Discourse QA pass: the checks before a reply is posted (its topic still read only by
the reply's audience, still open, its question still there) ran once, before the first send;
the client's retry loop then waited out a 429 (or backed off a 5xx) and sent again unchecked.
A staff-only answer was posted in a topic a moderator moved to a public category during the
wait, and a question deleted or hidden meanwhile, or a topic closed or archived for a staff
bot, still got its reply.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from bot.config import Settings
from bot.connectors.discourse import DiscourseConnector
from bot.runtime import Services
from bot.store import Store
from tests.connectors.discourse_harness import GUIDE, PUBLIC, SECRET_PLAN, STAFF, settings_for
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse, webhook_request


class ActingSleep:
    """The client's backoff sleep: a moderator acts while citecast waits out the 429."""

    def __init__(self, act: Callable[[], None]) -> None:
        self.act = act

    async def __call__(self, seconds: float) -> None:
        self.act()


async def answer_during_a_429(
    forum: FakeDiscourse,
    settings: Settings,
    store: Store,
    answerer: ScriptedAnswerer,
    sleep: ActingSleep,
    post: dict[str, Any],
) -> None:
    """Deliver ``post``'s webhook to a connector whose first reply the forum rate-limits, and
    wait until the answer task is done (``sleep`` acts while the client waits out the 429)."""
    connector = DiscourseConnector(Services(settings, store, answerer), sleep=sleep)
    app = Starlette(routes=connector.routes())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://c") as http:
        forum.rate_limit("/posts.json", wait_seconds=2)
        body, headers = webhook_request(post, "s3cret-webhook-of-the-tests")
        await http.post("/discourse/webhook", content=body, headers=headers)
        await connector.drain()
    await connector.stop()
    store.close()


CHANGES: dict[str, Callable[[FakeDiscourse, dict[str, Any]], None]] = {
    "closed": lambda forum, post: forum.close_topic(int(post["topic_id"])),
    "question deleted": lambda forum, post: forum.delete_post(post),
    "archived": lambda forum, post: forum.archive_topic(int(post["topic_id"])),
    "question hidden": lambda forum, post: forum.hide_post(post),
}


@pytest.mark.parametrize("staff", [False, True])
@pytest.mark.parametrize("change", list(CHANGES))
async def test_no_reply_after_a_change_during_a_429_wait(
    tmp_path: Path, change: str, staff: bool
) -> None:
    async with FakeDiscourse(staff=("citecast",) if staff else ()) as forum:
        topic = forum.new_topic("Install", "Notes on installing.", category_id=PUBLIC)
        post = copy.deepcopy(
            forum.user_posts(topic["topic_id"], "@citecast how do I install?", username="bob")
        )
        settings = settings_for(forum, tmp_path)
        store = Store(settings.store.path)
        sleep = ActingSleep(lambda: CHANGES[change](forum, post))
        answerer = ScriptedAnswerer([GUIDE], "Install with pip [1].")
        await answer_during_a_429(forum, settings, store, answerer, sleep, post)
        assert forum.bot_posts() == [], f"replied after the {change}"


async def test_a_private_reply_is_not_posted_after_its_topic_moved_public_during_the_wait(
    tmp_path: Path,
) -> None:
    async with FakeDiscourse() as forum:
        topic = forum.new_topic("Roadmap", "@citecast when is the launch?", category_id=STAFF)
        post = copy.deepcopy(topic)
        settings = settings_for(forum, tmp_path)
        store = Store(settings.store.path)

        def move() -> None:
            forum.topics[int(post["topic_id"])].category_id = PUBLIC

        answerer = ScriptedAnswerer([SECRET_PLAN], "Launch in May [1].")
        await answer_during_a_429(forum, settings, store, answerer, ActingSleep(move), post)
        leaked = [p["raw"] for p in forum.bot_posts() if "May" in p["raw"]]
        assert leaked == [], "a staff-only answer was posted in a public category"
