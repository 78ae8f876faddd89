"""Discord out of reach when `citecast serve` starts (no network yet, DNS, an outage): serving
goes on, and the bot keeps trying until Discord answers, then works as usual."""

from __future__ import annotations

import asyncio
import logging
import socket
from pathlib import Path

import pytest

from bot.config import Settings
from bot.connectors.discord import DiscordConnector
from bot.models import Source
from bot.runtime import Services
from bot.store import Store
from tests.connectors.test_discord_harness import (
    Harness,
    build_world,
    discord_settings,
    stop_harness,
)
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discord_api import FakeDiscord

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def offline_harness(tmp_path: Path) -> Harness:
    """A Discord connector (not started) whose Discord is not listening yet: ``h.fake.start()``
    brings it up on the port the connector keeps trying."""
    fake = FakeDiscord()
    fake.port = free_port()  # nothing listens there yet
    world = build_world(fake)
    settings = Settings(discord=discord_settings(fake, world))
    store = Store(tmp_path / "citecast.db")
    answerer = ScriptedAnswerer([GUIDE], "Use pip [1].")
    connector = DiscordConnector(Services(settings=settings, store=store, assistant=answerer))
    h = Harness(fake, connector, store, world)
    connector.on_handled = h._on_handled
    return h


async def test_a_discord_out_of_reach_at_start_is_tried_again_until_it_answers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    h = offline_harness(tmp_path)
    fake, connector, world = h.fake, h.connector, h.world
    try:
        with caplog.at_level(logging.WARNING):
            await connector.start()  # returns: the web app is served meanwhile
        assert not connector.ready.is_set()
        first = next(r for r in caplog.records if r.name.startswith("bot."))
        assert first.levelno == logging.WARNING and first.exc_info is None
        assert "cannot reach Discord" in first.getMessage()
        assert "not served" not in caplog.text

        await fake.start(port=fake.port)  # Discord is back
        await asyncio.wait_for(connector.ready.wait(), timeout=30)
        question = fake.user_message(world.general, world.alice, "install?", mention_bot=True)
        await h.deliver(question)
        (reply,) = fake.messages_in(world.general)
        assert "[Install guide](<https://docs.example.com/install>)" in reply["content"]
    finally:
        await stop_harness(h)
