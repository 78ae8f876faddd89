"""The Discourse connector test harness: the fake forum, a real connector and store, helpers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import mistune
import pytest
from starlette.applications import Starlette

from bot.config import Settings
from bot.connectors.discourse import DiscourseConnector
from bot.models import Source
from bot.runtime import Services
from bot.store import Store
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse, webhook_request

SECRET = "s3cret-webhook-of-the-tests"
PUBLIC, OTHER, STAFF = 5, 6, 9


class RecordingSleep:
    """Records the client's backoff waits without spending them."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@dataclass
class Harness:
    forum: FakeDiscourse
    store: Store
    connector: DiscourseConnector
    http: httpx.AsyncClient
    sleep: RecordingSleep
    answerer: ScriptedAnswerer

    async def deliver(
        self, post: dict[str, Any], *, event: str = "post_created", secret: str = SECRET
    ) -> httpx.Response:
        body, headers = webhook_request(post, secret, event=event)
        response = await self.http.post("/discourse/webhook", content=body, headers=headers)
        await self.connector.drain()
        return response

    def script(self, sources: Sequence[Source], raw: str) -> None:
        self.answerer = ScriptedAnswerer(sources, raw)
        self.connector.services.assistant = self.answerer


def settings_for(
    forum: FakeDiscourse,
    tmp_path: Path,
    *,
    capabilities: dict[str, Any] | None = None,
    **discourse: Any,
) -> Settings:
    """The harness's settings: the ``discourse`` section updated with ``discourse``, and
    ``capabilities.discourse`` (renderer overrides, e.g. ``max_files``) when given."""
    section: dict[str, Any] = {
        "enabled": True,
        "base_url": forum.url,
        "api_key": forum.api_key,
        "api_username": "citecast",
        "webhook_secret": SECRET,
        "categories": [PUBLIC, STAFF],
        "audience_by_category": {str(STAFF): ["staff"]},
        "max_attempts": 3,
        "retry_base_seconds": 0,
        "retry_max_seconds": 5,
        "outbox_poll_seconds": 0.01,
    }
    section.update(discourse)
    data: dict[str, Any] = {"store": {"path": str(tmp_path / "citecast.db")}, "discourse": section}
    if capabilities is not None:
        data["capabilities"] = {"discourse": capabilities}
    return Settings.model_validate(data)


@pytest.fixture
async def forum() -> AsyncIterator[FakeDiscourse]:
    async with FakeDiscourse() as fake:
        yield fake


async def make_harness(
    forum: FakeDiscourse,
    tmp_path: Path,
    *,
    capabilities: dict[str, Any] | None = None,
    **discourse: Any,
) -> Harness:
    settings = settings_for(forum, tmp_path, capabilities=capabilities, **discourse)
    store = Store(settings.store.path)
    answerer = ScriptedAnswerer([GUIDE], "Install with pip [1].")
    sleep = RecordingSleep()
    connector = DiscourseConnector(Services(settings, store, answerer), sleep=sleep)
    app = Starlette(routes=connector.routes())
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://citecast")
    return Harness(forum, store, connector, http, sleep, answerer)


@asynccontextmanager
async def opened_harness(
    forum: FakeDiscourse,
    tmp_path: Path,
    *,
    capabilities: dict[str, Any] | None = None,
    **discourse: Any,
) -> AsyncIterator[Harness]:
    """A harness (see :func:`make_harness`), closed on the way out."""
    h = await make_harness(forum, tmp_path, capabilities=capabilities, **discourse)
    try:
        yield h
    finally:
        await h.http.aclose()
        await h.connector.stop()
        h.store.close()


@pytest.fixture
async def harness(forum: FakeDiscourse, tmp_path: Path) -> AsyncIterator[Harness]:
    async with opened_harness(forum, tmp_path) as h:
        yield h


GUIDE = Source(
    id="guide",
    title="Install guide",
    url="https://docs.example/install",
    text="Install with pip.",
    page=3,
)
FAQ = Source(id="faq", title="FAQ [beta]", url="https://docs.example/faq", text="Answers.")
SECRET_PLAN = Source(
    id="private-id",
    title="Confidential roadmap",
    url="https://intranet.example/roadmap",
    text="Launch in May.",
    audience=("staff",),
)


def footnotes(raw: str) -> tuple[list[str], dict[str, list[tuple[str, str]]]]:
    """Footnote references and each definition's links, as Discourse's markdown would read them."""
    tokens = mistune.create_markdown(renderer=None, plugins=["footnotes"])(raw)
    refs: list[str] = []
    links: dict[str, list[tuple[str, str]]] = {}

    def text_of(children: list[dict[str, Any]]) -> str:
        return "".join(c.get("raw", "") or text_of(c.get("children", [])) for c in children)

    def walk(items: list[dict[str, Any]], key: str | None) -> None:
        for token in items:
            kind = token["type"]
            if kind == "footnote_ref":
                refs.append(token["raw"])
            elif kind == "footnote_item":
                item_key = str(token["attrs"]["key"])
                links[item_key] = []
                walk(token.get("children", []), item_key)
                continue
            elif kind == "link" and key is not None:
                links[key].append((text_of(token["children"]), token["attrs"]["url"]))
            walk(token.get("children", []), key)

    assert isinstance(tokens, list)
    walk(tokens, None)
    return refs, links


async def outbox_empty(harness: Harness) -> None:
    """Wait (boundedly) until the outbox worker has delivered every pending reply."""
    await outbox_empty_store(harness.store)


async def outbox_empty_store(store: Store) -> None:
    """Wait (boundedly) until ``store`` holds no pending Discourse reply."""
    for _ in range(1000):
        if not store.pending("discourse"):
            return
        await asyncio.sleep(0.01)


def only_post(forum: FakeDiscourse) -> dict[str, Any]:
    posts = forum.bot_posts()
    assert len(posts) == 1, [p["raw"] for p in posts]
    return posts[0]
