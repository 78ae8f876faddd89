"""Which role mentions summon the Discord bot: its own managed role always, a shared role it
holds only when listed in ``discord.summon_roles``, a role it does not hold never.

The guild's roles arrive in GUILD_CREATE as Discord sends them, managed ones with their ``tags``
(``bot_id``, ``integration_id``, ``premium_subscriber: null``), and the real discord.py client
reads them; messages mention roles by ``<@&id>`` with the id in ``mention_roles``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.config_file import parse_settings
from bot.models import Source
from tests.connectors.test_discord_harness import Harness, World, start_harness, stop_harness
from tests.fakes.discord_api import FakeDiscord

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


@dataclass(frozen=True)
class Roles:
    """The guild's roles besides Staff: a shared one the bot holds, and managed ones."""

    helpers: int  # a shared role given to the bot and to people, like @Moderators
    other_bot: int  # another bot's own managed role
    boosters: int  # the booster role (tags.premium_subscriber: null)
    twitch: int  # an integration's role (tags.integration_id)


def add_roles(fake: FakeDiscord, world: World, found: list[Roles]) -> None:
    """Add the roles to the guild as it is before the bot connects; the bot holds Helpers."""
    roles = Roles(
        helpers=fake.add_role(world.guild, "Helpers"),
        other_bot=fake.add_bot_role(world.guild, world.other_bot),
        boosters=fake.add_role(world.guild, "Server Booster", tags={"premium_subscriber": None}),
        twitch=fake.add_role(world.guild, "Twitch Subs", tags={"integration_id": "4242"}),
    )
    fake.members[(world.guild, int(fake.bot_user["id"]))]["roles"].append(str(roles.helpers))
    found.append(roles)


async def started(
    tmp_path: Path, summon: Callable[[World, Roles], list[int]] = lambda w, r: []
) -> tuple[Harness, Roles, Callable[[], list[str]]]:
    """A running harness with the roles added; ``summon`` picks ``discord.summon_roles``.
    Also returns the ids of the bot's messages in #general, as they are when called."""
    found: list[Roles] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        add_roles(fake, world, found)
        return {"summon_roles": summon(world, found[0])}

    h = await start_harness(tmp_path, configure=configure)
    return h, found[0], lambda: [m["id"] for m in h.fake.messages_in(h.world.general)]


@pytest.fixture
async def default(tmp_path: Path) -> AsyncIterator[tuple[Harness, Roles]]:
    h, roles, _ = await started(tmp_path)
    try:
        yield h, roles
    finally:
        await stop_harness(h)


async def ask_with_role(h: Harness, role: int, text: str = "how to install?") -> dict[str, Any]:
    question = h.fake.user_message(h.world.general, h.world.alice, text, mention_role=role)
    await h.deliver(question)
    return question


async def test_the_client_reads_the_managed_roles_tags_as_discord_sends_them(
    default: tuple[Harness, Roles],
) -> None:
    h, roles = default
    client = h.connector.client
    assert client is not None
    guild = client.get_guild(h.world.guild)
    assert guild is not None
    own = guild.get_role(h.fake.bot_role(h.world.guild))
    assert own is not None and guild.self_role == own
    assert own.managed and own.is_bot_managed() and own.tags is not None
    assert own.tags.bot_id == int(h.fake.bot_user["id"])
    theirs = guild.get_role(roles.other_bot)
    assert theirs is not None and theirs.is_bot_managed() and theirs.tags is not None
    assert theirs.tags.bot_id == int(h.world.other_bot["id"])
    boosters, twitch = guild.get_role(roles.boosters), guild.get_role(roles.twitch)
    assert boosters is not None and boosters.managed and boosters.is_premium_subscriber()
    assert twitch is not None and twitch.is_integration() and not twitch.is_bot_managed()
    helpers = guild.get_role(roles.helpers)
    assert helpers is not None and not helpers.managed and helpers.tags is None
    assert guild.me is not None and helpers in guild.me.roles


async def test_the_bots_managed_role_summons_it_and_is_not_part_of_the_question(
    default: tuple[Harness, Roles],
) -> None:
    h, _ = default
    answerer = h.use([GUIDE], "Use pip [1].")
    question = await ask_with_role(h, h.fake.bot_role(h.world.guild))
    assert [call[0] for call in answerer.calls] == ["how to install?"]
    (answer,) = h.fake.messages_in(h.world.general)
    assert answer["message_reference"]["message_id"] == question["id"]


async def test_a_shared_role_the_bot_holds_does_not_summon_it_by_default(
    default: tuple[Harness, Roles],
) -> None:
    # pinging @Helpers is for the people who hold it, not a question for the bot
    h, roles = default
    answerer = h.use([GUIDE], "Use pip [1].")
    await ask_with_role(h, roles.helpers, "can someone look at my ticket?")
    assert answerer.calls == []
    assert h.fake.created == []


async def test_an_edit_adding_a_shared_role_does_not_make_a_question(
    default: tuple[Harness, Roles],
) -> None:
    h, roles = default
    answerer = h.use([GUIDE], "Use pip [1].")
    question = h.fake.user_message(h.world.general, h.world.alice, "my ticket")
    await h.deliver(question)
    edited = h.fake.edited_message(int(question["id"]), f"<@&{roles.helpers}> my ticket")
    await h.deliver(edited, "MESSAGE_UPDATE")
    assert answerer.calls == []
    assert h.fake.created == []


async def test_managed_roles_of_others_never_summon_the_bot(
    default: tuple[Harness, Roles],
) -> None:
    # managed, but not the bot's own: another bot's role, the boosters', an integration's
    h, roles = default
    answerer = h.use([GUIDE], "Use pip [1].")
    for role in (roles.other_bot, roles.boosters, roles.twitch):
        await ask_with_role(h, role)
    assert answerer.calls == []
    assert h.fake.created == []


async def test_a_shared_role_pinged_beside_the_bot_stays_in_the_question(
    default: tuple[Harness, Roles],
) -> None:
    h, roles = default
    answerer = h.use([GUIDE], "Use pip [1].")
    w = h.world
    question = h.fake.user_message(
        w.general, w.alice, f"should <@&{roles.helpers}> restart it?", mention_bot=True
    )
    question["mention_roles"] = [str(roles.helpers)]
    await h.deliver(question)
    assert [call[0] for call in answerer.calls] == ["should @Helpers restart it?"]


async def test_a_listed_shared_role_the_bot_holds_summons_it(tmp_path: Path) -> None:
    h, roles, sent = await started(tmp_path, summon=lambda w, r: [r.helpers])
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        await ask_with_role(h, roles.helpers)
        # the summoning mention is taken out of the question, like the bot's own
        assert [call[0] for call in answerer.calls] == ["how to install?"]
        assert len(sent()) == 1
        await ask_with_role(h, h.fake.bot_role(h.world.guild), "and on Windows?")
        assert len(answerer.calls) == 2  # its own role still summons it
    finally:
        await stop_harness(h)


async def test_a_listed_role_the_bot_does_not_hold_never_summons_it(tmp_path: Path) -> None:
    # Discord notifies only the holders of a role: a listed Staff or another bot's role is
    # pinged for others, whatever the setting says
    h, roles, sent = await started(
        tmp_path, summon=lambda w, r: [w.staff_role, r.other_bot, r.boosters, r.twitch]
    )
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        for role in (h.world.staff_role, roles.other_bot, roles.boosters, roles.twitch):
            await ask_with_role(h, role)
        assert answerer.calls == []
        assert sent() == []
    finally:
        await stop_harness(h)


async def test_a_role_the_bot_is_given_later_counts_once_listed(tmp_path: Path) -> None:
    h, _, sent = await started(tmp_path, summon=lambda w, r: [w.staff_role])
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        await ask_with_role(h, h.world.staff_role)
        assert answerer.calls == [] and sent() == []
        # a moderator gives the bot Staff: Discord sends the member update, and it now counts
        member = h.fake.members[(h.world.guild, int(h.fake.bot_user["id"]))]
        member["roles"].append(str(h.world.staff_role))
        await h.fake.dispatch("GUILD_MEMBER_UPDATE", {"guild_id": str(h.world.guild), **member})
        await ask_with_role(h, h.world.staff_role)
        assert [call[0] for call in answerer.calls] == ["how to install?"]
    finally:
        await stop_harness(h)


def test_summon_roles_take_ids_with_or_without_quotes() -> None:
    settings = parse_settings({"discord": {"summon_roles": ["123456789012345678", 2345]}})
    assert settings.discord.summon_roles == [123456789012345678, 2345]
    assert parse_settings({}).discord.summon_roles == []


async def test_a_listed_role_the_bot_holds_nowhere_is_named_in_one_warning_at_connect(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # a wrong id, or a role nobody gave the bot, would otherwise do nothing without a word
    with caplog.at_level(logging.WARNING, logger="bot.connectors.discord"):
        h, roles, _ = await started(tmp_path, summon=lambda w, r: [r.helpers, w.staff_role])
    try:
        (record,) = [r for r in caplog.records if "summon_roles" in r.getMessage()]
        assert record.levelno == logging.WARNING
        message = record.getMessage()
        assert str(h.world.staff_role) in message and str(roles.helpers) not in message
    finally:
        await stop_harness(h)
