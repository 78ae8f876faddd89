"""``discord.summon_roles`` after the bot connected: roles deleted, renamed, created and given to
the bot, or taken from it, arrive as Discord's gateway events (GUILD_ROLE_CREATE, _UPDATE,
_DELETE, GUILD_MEMBER_UPDATE), and both what summons the bot and what the operator is told follow
them, not the guild as it was at connect.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from tests.connectors.test_discord_harness import Harness, World, start_harness, stop_harness
from tests.connectors.test_discord_role_mentions import GUIDE, ask_with_role, started
from tests.fakes.discord_api import FakeDiscord

LOGGER = "bot.connectors"


async def give_bot_roles(h: Harness, roles: list[int]) -> None:
    """A moderator sets the bot's roles (besides its own): Discord sends the member update."""
    member = h.fake.members[(h.world.guild, int(h.fake.bot_user["id"]))]
    member["roles"] = [str(h.fake.bot_role(h.world.guild)), *(str(r) for r in roles)]
    await h.fake.dispatch("GUILD_MEMBER_UPDATE", {"guild_id": str(h.world.guild), **member})


def lines(caplog: pytest.LogCaptureFixture, text: str) -> list[logging.LogRecord]:
    return [
        r for r in caplog.records if "summon_roles" in r.getMessage() and text in r.getMessage()
    ]


async def test_a_listed_role_deleted_after_connect_stops_summoning_and_is_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    h, roles, sent = await started(tmp_path, summon=lambda w, r: [r.helpers])
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        await ask_with_role(h, roles.helpers)
        assert len(answerer.calls) == 1
        with caplog.at_level(logging.INFO, logger=LOGGER):
            payload = {"guild_id": str(h.world.guild), "role_id": str(roles.helpers)}
            await h.fake.dispatch("GUILD_ROLE_DELETE", payload)
            # a message after the event: the event has been handled when it is
            await ask_with_role(h, roles.helpers, "and now?")
        assert len(answerer.calls) == 1 and len(sent()) == 1
        (warning,) = lines(caplog, "no longer holds")
        assert warning.levelno == logging.WARNING and str(roles.helpers) in warning.getMessage()
    finally:
        await stop_harness(h)


async def test_a_listed_role_taken_from_the_bot_is_named_and_named_again_when_given_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    h, roles, _ = await started(tmp_path, summon=lambda w, r: [r.helpers])
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        with caplog.at_level(logging.INFO, logger=LOGGER):
            await give_bot_roles(h, [])
            await ask_with_role(h, roles.helpers)
            assert answerer.calls == []
            (warning,) = lines(caplog, "no longer holds")
            assert str(roles.helpers) in warning.getMessage()
            await give_bot_roles(h, [roles.helpers])
            await ask_with_role(h, roles.helpers, "and now?")
        assert [call[0] for call in answerer.calls] == ["and now?"]
        (info,) = lines(caplog, "now holds it")
        assert info.levelno == logging.INFO and str(roles.helpers) in info.getMessage()
    finally:
        await stop_harness(h)


async def test_a_listed_role_given_after_the_connect_warning_is_reported_as_held(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger=LOGGER):
        h, _, _ = await started(tmp_path, summon=lambda w, r: [w.staff_role])
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        (connect,) = lines(caplog, "holds no such role")
        assert str(h.world.staff_role) in connect.getMessage()
        with caplog.at_level(logging.INFO, logger=LOGGER):
            await give_bot_roles(h, [h.world.staff_role])
            await ask_with_role(h, h.world.staff_role)
        assert len(answerer.calls) == 1
        (info,) = lines(caplog, "now holds it")
        assert str(h.world.staff_role) in info.getMessage()
    finally:
        await stop_harness(h)


async def test_a_role_created_after_connect_and_given_to_the_bot_summons_it_when_listed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # the role's id is listed before the role exists (as when a server's roles are set up
    # again): it counts from the moment Discord says the bot holds it
    reserved: list[int] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        reserved.append(fake.snowflake())
        return {"summon_roles": reserved}

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        w = h.world
        rid = h.fake.add_role(w.guild, "Docs Helpers", role_id=reserved[0])
        role = next(r for r in h.fake.guilds[w.guild]["roles"] if r["id"] == str(rid))
        with caplog.at_level(logging.INFO, logger=LOGGER):
            await h.fake.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(w.guild), "role": role})
            await ask_with_role(h, rid)
            assert answerer.calls == []  # created, but nobody gave it to the bot yet
            await give_bot_roles(h, [rid])
            await ask_with_role(h, rid, "and now?")
        assert [call[0] for call in answerer.calls] == ["and now?"]
        assert len(h.fake.messages_in(w.general)) == 1
        (info,) = lines(caplog, "now holds it")
        assert str(rid) in info.getMessage()
    finally:
        await stop_harness(h)


async def test_a_listed_role_renamed_after_connect_still_summons_without_a_word(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    h, roles, sent = await started(tmp_path, summon=lambda w, r: [r.helpers])
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        guild = h.fake.guilds[h.world.guild]
        role = next(r for r in guild["roles"] if r["id"] == str(roles.helpers))
        role["name"] = "Docs Helpers"
        with caplog.at_level(logging.INFO, logger=LOGGER):
            await h.fake.dispatch(
                "GUILD_ROLE_UPDATE", {"guild_id": str(h.world.guild), "role": role}
            )
            await ask_with_role(h, roles.helpers)
        assert len(answerer.calls) == 1 and len(sent()) == 1
        assert lines(caplog, "") == []
        client = h.connector.client
        assert client is not None
        cached = client.get_guild(h.world.guild)
        assert cached is not None and str(cached.get_role(roles.helpers)) == "Docs Helpers"
    finally:
        await stop_harness(h)
