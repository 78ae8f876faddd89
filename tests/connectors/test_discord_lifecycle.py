"""The Discord client's life: login and gateway against the fakes, intents, stop, bad config."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.config import DiscordSettings, Settings
from bot.connectors.base import enabled_connectors
from bot.connectors.discord import DiscordConnector
from bot.connectors.discord_http import bot_intents
from bot.errors import ConfigError
from bot.runtime import Services
from bot.store import Store
from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.answerer import ScriptedAnswerer

__all__ = ["harness"]

GUILDS, GUILD_MESSAGES, DM_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 9, 1 << 12, 1 << 15


async def test_start_logs_in_and_identifies_with_exactly_the_needed_intents(
    harness: Harness,
) -> None:
    assert harness.fake.identify is not None
    assert harness.fake.identify["token"] == "test-token"
    assert (
        harness.fake.identify["intents"] == GUILDS | GUILD_MESSAGES | DM_MESSAGES | MESSAGE_CONTENT
    )
    assert ("GET", "/users/@me") in [(m, p) for m, p, _ in harness.fake.requests]
    client = harness.connector.client
    assert client is not None and client.user is not None
    assert client.user.id == int(harness.fake.bot_user["id"])
    assert [g.id for g in client.guilds] == [harness.world.guild]


async def test_redirection_is_per_client_and_leaves_discord_py_globals_alone(
    harness: Harness,
) -> None:
    assert Route.BASE == "https://discord.com/api/v10"
    assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"
    assert bot_intents().value == GUILDS | GUILD_MESSAGES | DM_MESSAGES | MESSAGE_CONTENT


async def test_stop_closes_the_client_and_the_gateway(harness: Harness) -> None:
    client = harness.connector.client
    assert client is not None
    await harness.connector.stop()
    assert client.is_closed()
    assert not harness.connector.ready.is_set()
    assert harness.connector.routes() == []


def test_building_without_a_token_names_the_key(tmp_path: Path) -> None:
    settings = Settings(discord=DiscordSettings(enabled=True, token=" "))
    store = Store(tmp_path / "db.sqlite")
    services = Services(settings=settings, store=store, assistant=ScriptedAnswerer([], "x"))
    with pytest.raises(ConfigError, match=r"discord\.token"):
        enabled_connectors(services)
    store.close()


def test_serve_builds_the_connector_when_discord_is_enabled(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    answerer = ScriptedAnswerer([], "x")
    on = Settings(discord=DiscordSettings(enabled=True, token="t"))
    off = Settings()
    try:
        built = enabled_connectors(Services(settings=on, store=store, assistant=answerer))
        assert [type(c) for c in built if c.name == "discord"] == [DiscordConnector]
        none = enabled_connectors(Services(settings=off, store=store, assistant=answerer))
        assert [c for c in none if c.name == "discord"] == []
    finally:
        store.close()
