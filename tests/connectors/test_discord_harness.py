"""The Discord test harness: the fake Discord, a running DiscordConnector, and helpers.

Fixtures here are imported by the other ``test_discord_*`` modules. The connector runs exactly
as under ``citecast serve``: ``start()`` logs the real discord.py client in against the fake REST
API and connects it to the fake gateway; events pushed through the gateway reach the
connector's handler as real ``discord.Message`` objects.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.assistant.base import Answerer
from bot.config import DiscordSettings, Settings
from bot.connectors.discord import DiscordConnector
from bot.models import Source
from bot.runtime import Services
from bot.store import Store
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.discord_api import FakeDiscord, Recorded

TOKEN = "test-token"


@dataclass
class World:
    """A guild with a public channel, a staff-only channel, a forum, and two people."""

    guild: int
    general: int
    staff_channel: int
    forum: int
    staff_role: int
    alice: dict[str, Any]
    bob: dict[str, Any]
    other_bot: dict[str, Any]


@dataclass
class Harness:
    fake: FakeDiscord
    connector: DiscordConnector
    store: Store
    world: World
    handled: dict[int, asyncio.Future[None]] = field(default_factory=dict)
    last_question_id: int = 0

    def use(self, sources: Sequence[Source], raw: str, *, chunk: int = 7) -> ScriptedAnswerer:
        """Answer every question with ``raw`` over ``sources`` (real registry and resolver)."""
        answerer = ScriptedAnswerer(sources, raw, chunk=chunk)
        self.connector.services.assistant = answerer
        return answerer

    async def deliver(self, data: dict[str, Any], event: str = "MESSAGE_CREATE") -> None:
        """Push a gateway event and wait until the connector has finished with the message."""
        mid = int(data["id"])
        self.last_question_id = mid
        done = asyncio.get_running_loop().create_future()
        self.handled[mid] = done
        await self.fake.dispatch(event, data)
        await asyncio.wait_for(done, timeout=30)

    def _on_handled(self, message_id: int) -> None:
        future = self.handled.get(message_id)
        if future is not None and not future.done():
            future.set_result(None)

    def sent_after(self, start: int) -> list[Recorded]:
        return self.fake.created[start:]


def build_world(fake: FakeDiscord) -> World:
    guild = fake.add_guild("Docs Guild")
    staff_role = fake.add_role(guild, "Staff")
    general = fake.add_channel(guild, "general")
    # the bot is let in through its own managed role, as Discord requires it to see the channel
    staff_channel = fake.add_channel(
        guild, "staff-only", view_only_roles=[staff_role, fake.bot_role(guild)]
    )
    forum = fake.add_channel(guild, "help-forum", kind=15)
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    other_bot = fake.add_user("otherbot", bot=True)
    fake.add_member(guild, alice, roles=[staff_role])
    fake.add_member(guild, bob)
    fake.add_member(guild, other_bot)
    return World(guild, general, staff_channel, forum, staff_role, alice, bob, other_bot)


def discord_settings(fake: FakeDiscord, world: World, **overrides: Any) -> DiscordSettings:
    values: dict[str, Any] = {
        "enabled": True,
        "token": TOKEN,
        "api_base_url": fake.base_url,
        "gateway_url": fake.gateway_url,
        "forum_channels": [world.forum],
        "guild_ready_timeout": 0.05,
        "stream_interval": 0.0,
        "retry_backoff": 0.01,
        "typing_interval": 0.05,
        "audience_by_role": {str(world.staff_role): ["staff"]},
    }
    values.update(overrides)
    return DiscordSettings(**values)


async def start_harness(
    tmp_path: Path,
    configure: Callable[[FakeDiscord, World], dict[str, Any]] | None = None,
    **overrides: Any,
) -> Harness:
    """Start the fake and a connector.

    ``configure(fake, world)`` runs before the connector connects: it may add guild state and
    returns settings that need the ids.
    """
    fake = FakeDiscord()
    await fake.start()
    world = build_world(fake)
    if configure is not None:
        overrides.update(configure(fake, world))
    settings = Settings(discord=discord_settings(fake, world, **overrides))
    store = Store(tmp_path / "citecast.db")
    assistant: Answerer = ScriptedAnswerer([], "Nothing to say.")
    connector = DiscordConnector(Services(settings=settings, store=store, assistant=assistant))
    harness = Harness(fake, connector, store, world)
    connector.on_handled = harness._on_handled
    await connector.start()
    await asyncio.wait_for(connector.ready.wait(), timeout=30)
    return harness


async def stop_harness(harness: Harness) -> None:
    await harness.connector.stop()
    await harness.fake.close()
    harness.store.close()


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = await start_harness(tmp_path)
    try:
        yield h
    finally:
        await stop_harness(h)


def test_world_channels_are_registered_with_the_fake() -> None:
    fake = FakeDiscord()
    world = build_world(fake)
    assert fake.channels[world.forum]["type"] == 15
    overwrites = fake.channels[world.staff_channel]["permission_overwrites"]
    bot_role = str(fake.bot_role(world.guild))
    assert [o["id"] for o in overwrites] == [str(world.guild), str(world.staff_role), bot_role]
