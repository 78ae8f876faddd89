"""The Slack connector inside the one ``citecast serve`` app (enabled from config)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from bot.config import Settings, SlackSettings
from bot.connectors.app import build_app
from bot.connectors.base import enabled_connectors
from bot.connectors.slack import SlackConnector
from bot.models import Source
from bot.runtime import Services
from bot.store import Store
from tests.connectors.slack_harness import (
    PUBLIC,
    SECRET,
    event_body,
    mention,
    settle,
    standard_workspace,
)
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.slack_api import FakeSlackAPI, slack_signature_headers


async def test_serve_mounts_the_events_endpoint_and_answers(tmp_path: Path) -> None:
    guide = Source(id="guide", title="Install guide", url="https://docs.example.com/install")
    answerer = ScriptedAnswerer([guide], "Run the installer [1].")
    async with FakeSlackAPI() as fake:
        standard_workspace(fake)
        slack = SlackSettings(
            enabled=True,
            bot_token=fake.bot_token,
            signing_secret=SECRET,
            api_base_url=fake.base_url,
            streaming="none",
        )
        store = Store(tmp_path / "citecast.db")
        services = Services(settings=Settings(slack=slack), store=store, assistant=answerer)
        [connector] = enabled_connectors(services)
        assert isinstance(connector, SlackConnector)
        app = build_app(services, connectors=[connector], shutdown_grace=5.0)
        body = json.dumps(
            event_body(mention("install?", ts="1600000000.050000"), "EvSERVE")
        ).encode()
        headers = {"Content-Type": "application/json", **slack_signature_headers(SECRET, body)}
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://citecast") as http:
                response = await http.post("/slack/events", content=body, headers=headers)
                assert response.status_code == 200
                await settle(connector)
        [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.050000")
        assert "Install guide" in json.dumps(message["blocks"])
        store.close()
