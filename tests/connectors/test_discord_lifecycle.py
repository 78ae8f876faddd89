"""The Discord client's life: login and gateway against the fakes, intents, stop, bad config."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import discord
import pytest
import yaml
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.config import DiscordSettings, Settings
from bot.connectors.base import enabled_connectors
from bot.connectors.discord import DiscordConnector
from bot.connectors.discord_connect import log_exit
from bot.connectors.discord_http import bot_intents
from bot.errors import ConfigError
from bot.runtime import Services
from bot.store import Store
from tests.connectors.test_discord_harness import (
    Harness,
    build_world,
    discord_settings,
    harness,
)
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discord_api import FakeDiscord

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


async def connector_for(fake: FakeDiscord, tmp_path: Path, token: str) -> DiscordConnector:
    world = build_world(fake)
    settings = Settings(discord=discord_settings(fake, world, token=token))
    store = Store(tmp_path / "db.sqlite")
    services = Services(settings=settings, store=store, assistant=ScriptedAnswerer([], "x"))
    return DiscordConnector(services)


@pytest.mark.parametrize(
    ("token", "message_content", "fix"),
    [
        ("wrong-token", True, r"discord\.token: Discord refused the bot token; .*Reset Token"),
        ("test-token", False, r"Privileged Gateway Intents → Message Content Intent"),
    ],
    ids=["wrong-token", "no-message-content-intent"],
)
async def test_a_setup_discord_refuses_fails_start_in_one_line(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    token: str,
    message_content: bool,
    fix: str,
) -> None:
    fake = FakeDiscord()
    await fake.start()
    if not message_content:
        fake.allowed_intents &= ~MESSAGE_CONTENT
    connector = await connector_for(fake, tmp_path, token)
    try:
        with caplog.at_level(logging.INFO), pytest.raises(ConfigError, match=fix):
            await asyncio.wait_for(connector.start(), timeout=10)
        assert connector.client is not None and connector.client.is_closed()
        assert not connector.ready.is_set()
        ours = [r for r in caplog.records if r.name.startswith("bot.")]
        assert all(r.exc_info is None for r in ours)
    finally:
        await connector.stop()
        await fake.close()
        connector.services.store.close()


async def test_a_client_that_stops_later_for_a_setup_problem_logs_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def lose_intent() -> None:
        raise discord.PrivilegedIntentsRequired(None)

    task = asyncio.create_task(lose_intent())
    await asyncio.gather(task, return_exceptions=True)
    with caplog.at_level(logging.ERROR):
        log_exit(task)
    (record,) = caplog.records
    assert record.exc_info is None
    assert "Message Content Intent" in record.getMessage()


async def test_serve_with_a_token_discord_refuses_exits_with_one_line(tmp_path: Path) -> None:
    # what an operator sees: a real `citecast serve` against the fake Discord, no traceback
    fake = FakeDiscord()
    await fake.start()
    try:
        build_world(fake)
        discord_config = {
            "enabled": True,
            "token": "revoked-token",
            "api_base_url": fake.base_url,
            "gateway_url": fake.gateway_url,
        }
        config = {"store": {"path": str(tmp_path / "store.db")}, "discord": discord_config}
        (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
        command = ["-m", "bot", "--config", str(tmp_path / "config.yaml"), "serve", "--port", "0"]
        process = await asyncio.create_subprocess_exec(
            sys.executable, *command, cwd=tmp_path, stderr=asyncio.subprocess.PIPE
        )
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    finally:
        await fake.close()
    err = stderr.decode()
    assert process.returncode == 2, err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == (
        f"citecast serve: {tmp_path / 'config.yaml'}: discord.token: Discord refused the bot"
        " token; copy a new one from the Developer Portal (Bot → Reset Token) into"
        " DISCORD_BOT_TOKEN"
    )


async def test_start_up_logs_no_warning_about_voice_support(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as in a fresh `citecast serve` process, where discord.py has not warned yet
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    fake = FakeDiscord()
    await fake.start()
    connector = await connector_for(fake, tmp_path, "test-token")
    try:
        with caplog.at_level(logging.INFO):
            await asyncio.wait_for(connector.start(), timeout=30)
        warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert not [w for w in warnings if "voice" in w], warnings
    finally:
        await connector.stop()
        await fake.close()
        connector.services.store.close()
