"""Discourse lifecycle: ack before answer, stop, crash recovery and the served app."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.errors import ConfigError
from bot.runtime import Services
from bot.store import Store
from tests.connectors.discourse_harness import (
    GUIDE,
    PUBLIC,
    SECRET,
    Harness,
    footnotes,
    forum,
    harness,
    make_harness,
    only_post,
    outbox_empty,
    outbox_empty_store,
    settings_for,
)
from tests.fakes.answerer import GatedAnswerer, ScriptedAnswerer
from tests.fakes.discourse_api import FakeDiscourse, webhook_request

__all__ = ["forum", "harness"]


async def test_the_webhook_is_acknowledged_before_the_answer(harness: Harness) -> None:
    gated = GatedAnswerer(harness.answerer)
    harness.connector.services.assistant = gated
    first = harness.forum.new_topic("Slow", "A slow question", category_id=PUBLIC)
    body, headers = webhook_request(first, SECRET)
    response = await harness.http.post("/discourse/webhook", content=body, headers=headers)
    assert response.status_code == 200
    await gated.started.wait()
    assert harness.forum.api_posts == []
    gated.gate.set()
    await harness.connector.drain()
    only_post(harness.forum)


async def test_stop_records_unfinished_answers_as_failed(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    h = await make_harness(forum, tmp_path)
    h.connector.shutdown_grace = 0
    gated = GatedAnswerer(h.answerer)
    h.connector.services.assistant = gated
    first = forum.new_topic("Stuck", "A question that never ends", category_id=PUBLIC)
    body, headers = webhook_request(first, SECRET)
    await h.http.post("/discourse/webhook", content=body, headers=headers)
    await gated.started.wait()
    await h.connector.stop()
    turns = h.store.turns(f"discourse-topic-{first['topic_id']}")
    assert [t.status for t in turns] == ["failed"]
    assert forum.api_posts == []
    await h.http.aclose()
    h.store.close()


async def test_a_reply_left_in_the_outbox_by_a_crash_is_sent_at_start(
    harness: Harness,
) -> None:
    first = harness.forum.new_topic("Crash", "Did it crash?", category_id=PUBLIC)
    payload = {
        "topic_id": first["topic_id"],
        "raw": "The answer that was composed before the crash.",
        "reply_to_post_number": 1,
        "post_id": first["id"],
        "part": 1,
    }
    harness.store.enqueue("discourse", payload, item_id=f"discourse-{first['id']}")
    await harness.connector.start()
    await outbox_empty(harness)
    assert only_post(harness.forum)["raw"] == payload["raw"]
    assert harness.store.pending("discourse") == []


async def test_enabled_connectors_builds_the_discourse_connector(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    from bot.connectors.base import enabled_connectors

    settings = settings_for(forum, tmp_path)
    store = Store(settings.store.path)
    try:
        connectors = enabled_connectors(Services(settings, store, ScriptedAnswerer([], "")))
        assert [c.name for c in connectors] == ["discourse"]
        assert [getattr(r, "path", None) for r in connectors[0].routes()] == ["/discourse/webhook"]
    finally:
        store.close()


async def test_the_served_app_answers_a_webhook_over_http(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    """``citecast serve``'s app on a real loopback socket: lifespan starts and stops us."""
    import uvicorn

    from bot.connectors.app import build_app

    settings = settings_for(forum, tmp_path)
    store = Store(settings.store.path)
    services = Services(settings, store, ScriptedAnswerer([GUIDE], "Install with pip [1]."))
    app = build_app(services, shutdown_grace=1.0)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        first = forum.new_topic("Served", "Does serve work?", category_id=PUBLIC)
        body, headers = webhook_request(first, SECRET)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            response = await http.post("/discourse/webhook", content=body, headers=headers)
            forged = await http.post(
                "/discourse/webhook",
                content=body,
                headers=headers | {"X-Discourse-Event-Signature": "sha256=" + "0" * 64},
            )
        assert (response.status_code, forged.status_code) == (200, 403)
        for _ in range(1000):
            turns = store.turns(f"discourse-topic-{first['topic_id']}")
            if turns and turns[0].status == "done":
                break
            await asyncio.sleep(0.01)
        await outbox_empty_store(store)
    finally:
        server.should_exit = True
        await serving
    _, links = footnotes(only_post(forum)["raw"])
    assert links["1"] == [("Install guide", GUIDE.url)]
    store.close()


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"webhook_secret": ""}, "discourse.webhook_secret: required when discourse is enabled"),
        ({"api_key": " ", "base_url": ""}, "discourse.base_url, discourse.api_key: required"),
        ({"base_url": "forum.example.org"}, "discourse.base_url: must be the forum's http(s)"),
    ],
)
async def test_building_the_connector_names_unusable_settings(
    forum: FakeDiscourse, tmp_path: Path, section: dict[str, Any], message: str
) -> None:
    from bot.connectors.base import enabled_connectors

    settings = settings_for(forum, tmp_path, **section)
    store = Store(settings.store.path)
    try:
        with pytest.raises(ConfigError, match=re.escape(message)):
            enabled_connectors(Services(settings, store, ScriptedAnswerer([], "")))
    finally:
        store.close()
