"""The INFO lines an operator follows (found in a QA pass): an answer to an edited question read
"answered <id>" again, as if a second question had come, and a question answered while the
guilds were still loading was logged before "connected as"."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import Settings
from bot.connectors.discord import DiscordConnector
from bot.runtime import Services
from bot.store import Store
from tests.connectors.discord_edit_helpers import answered, edit, mention
from tests.connectors.test_discord_harness import Harness, build_world, discord_settings, harness
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discord_api import FakeDiscord

__all__ = ["harness"]

LOGGER = "bot.connectors"


def info_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith(LOGGER) and r.levelno == logging.INFO
    ]


async def test_an_answer_to_an_edited_question_is_logged_as_re_answered(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    caplog.set_level(logging.INFO, logger=LOGGER)
    _, question, _ = await answered(h, "how to instal?")
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} how to install?"))
    lines = [line for line in info_lines(caplog) if question["id"] in line and "answered" in line]
    assert lines == [
        f"discord: answered {question['id']} (mention) in 1 message(s)",
        f"discord: re-answered {question['id']} (edited; mention) in 1 message(s)",
    ]


async def test_connected_as_is_logged_when_the_session_starts_not_when_guilds_loaded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # discord.py holds on_ready back until no guild has arrived for guild_ready_timeout, while
    # questions are already handled: the line comes with the session, before any of them
    caplog.set_level(logging.INFO, logger=LOGGER)
    fake = FakeDiscord()
    await fake.start()
    store = Store(tmp_path / "citecast.db")
    settings = discord_settings(fake, build_world(fake), guild_ready_timeout=60.0)
    services = Services(
        settings=Settings(discord=settings),
        store=store,
        assistant=ScriptedAnswerer([], "Nothing to say."),
    )
    connector = DiscordConnector(services)
    try:
        await connector.start()  # returns once the session is up
        assert connector.connected.is_set() and not connector.ready.is_set()
        assert any(line.startswith("discord: connected as citecast") for line in info_lines(caplog))
    finally:
        await connector.stop()
        await fake.close()
        store.close()
