"""Audience mappings are keyed by Discord ids: a name (``Staff``, ``staff-only``, ``alice``) was
accepted silently and matched nothing, so its groups never applied (found in a QA pass). Names
are refused when the settings load, saying how to copy the id; ids that match nothing the bot
can see are named in one warning per setting when it connects. The same holds for the id lists
``channels``, ``forum_channels`` and ``summon_roles`` (a later QA pass): a name there failed with
pydantic's bare "valid integer", and a wrong channel id left its mentions unanswered in silence."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError
from tests.connectors.test_discord_harness import World, start_harness, stop_harness
from tests.fakes.discord_api import FakeDiscord

LOGGER = "bot.connectors"
ID_LISTS = ("channels", "forum_channels", "summon_roles")


@pytest.mark.parametrize(
    ("key", "name", "how"),
    [
        ("audience_by_role", "Staff", "right-click the role → Copy Role ID"),
        ("audience_by_channel", "staff-only", "right-click the channel → Copy Channel ID"),
        ("dm_audience_by_user", "alice", "right-click the user → Copy User ID"),
        ("audience_by_guild", "Docs Guild", "right-click the server icon → Copy Server ID"),
        ("channels", "general", "right-click the channel → Copy Channel ID"),
        ("forum_channels", "help-forum", "right-click the channel → Copy Channel ID"),
        ("summon_roles", "Moderators", "right-click the role → Copy Role ID"),
    ],
)
def test_a_name_where_an_id_belongs_is_refused_in_one_line(
    tmp_path: Path, key: str, name: str, how: str
) -> None:
    config = tmp_path / "config.yaml"
    # the maps are keyed by ids, the other settings are lists of them
    value = f"[123456789012345678, {name}]" if key in ID_LISTS else f"\n    {name}: [staff]"
    config.write_text(f"discord:\n  {key}: {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    message = str(raised.value)
    assert "\n" not in message
    assert f"discord.{key}: '{name}' is not an id" in message
    assert "Developer Mode" in message and how in message


def test_ids_quoted_or_not_still_load(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        'discord:\n  audience_by_role:\n    567890123456789012: [staff]\n    "42": [board]\n'
        '  channels: [567890123456789012, "42"]\n  summon_roles: [" 7 "]\n',
        encoding="utf-8",
    )
    settings = load_settings(config).discord
    assert settings.audience_by_role == {"567890123456789012": ["staff"], "42": ["board"]}
    assert settings.channels == [567890123456789012, 42]
    assert settings.summon_roles == [7]


async def test_ids_matching_nothing_the_bot_sees_are_named_at_connect(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    gone_role, gone_channel, other_guild = 111111111111111111, 222222222222222222, 3333333333
    typo, other = 555555555555555555, 444444444444444444

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        return {
            "audience_by_role": {str(world.staff_role): ["staff"], str(gone_role): ["staff"]},
            "audience_by_channel": {
                str(world.staff_channel): ["staff"],
                str(gone_channel): ["staff"],
            },
            "audience_by_guild": {str(world.guild): ["employees"], str(other_guild): ["x"]},
            "channels": [world.general, gone_channel, typo],
            "forum_channels": [world.forum, other],
        }

    caplog.set_level(logging.INFO, logger=LOGGER)
    h = await start_harness(tmp_path, configure=configure)
    await stop_harness(h)
    warnings = [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith(LOGGER) and r.levelno == logging.WARNING
    ]
    assert sorted(warnings) == [
        f"discord: discord.audience_by_channel: {gone_channel} match(es) no channel, category "
        "or thread the bot can see; its groups never apply (a wrong, deleted or other "
        "server's id?)",
        f"discord: discord.audience_by_guild: {other_guild} match(es) no server the bot is in; "
        "its groups never apply (a wrong, deleted or other server's id?)",
        f"discord: discord.audience_by_role: {gone_role} match(es) no role in the servers the "
        "bot is in; its groups never apply (a wrong, deleted or other server's id?)",
        f"discord: discord.channels: {gone_channel}, {typo} match(es) no channel, category or "
        "thread the bot can see; mentions there are never answered (a wrong, deleted or other "
        "server's id?)",
        f"discord: discord.forum_channels: {other} match(es) no forum channel the bot can "
        "see; its posts are never answered (a wrong, deleted or other server's id?)",
    ]


async def test_known_ids_and_an_archived_thread_warn_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        thread = fake.thread_payload(world.guild, world.general, "old talk", 1)  # not cached
        return {
            "audience_by_channel": {str(thread): ["staff"]},
            "channels": [world.general, thread],
            "forum_channels": [world.forum],
        }

    caplog.set_level(logging.INFO, logger=LOGGER)
    h = await start_harness(tmp_path, configure=configure)
    await stop_harness(h)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
