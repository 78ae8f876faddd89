"""``discord.channels``, ``forum_channels`` and ``summon_roles`` are lists of Discord ids (found
in a QA pass): a name there failed with pydantic's bare "valid integer", and an id that matches
nothing the bot can see left its mentions silently unanswered. A name is refused saying how to
copy the id, as for the audience maps; an unknown id is named in one warning per setting."""

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


@pytest.mark.parametrize(
    ("key", "name", "how"),
    [
        ("channels", "general", "right-click the channel → Copy Channel ID"),
        ("forum_channels", "help-forum", "right-click the channel → Copy Channel ID"),
        ("summon_roles", "Moderators", "right-click the role → Copy Role ID"),
    ],
)
def test_a_name_in_an_id_list_is_refused_saying_how_to_copy_the_id(
    tmp_path: Path, key: str, name: str, how: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"discord:\n  {key}: [123456789012345678, {name}]\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    message = str(raised.value)
    assert "\n" not in message
    assert f"discord.{key}: '{name}' is not an id" in message
    assert "Developer Mode" in message and how in message


def test_ids_in_the_lists_quoted_or_not_still_load(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        'discord:\n  channels: [567890123456789012, "42"]\n  summon_roles: [" 7 "]\n',
        encoding="utf-8",
    )
    settings = load_settings(config).discord
    assert settings.channels == [567890123456789012, 42]
    assert settings.summon_roles == [7]


async def test_channel_ids_matching_nothing_are_named_once_per_setting(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    gone, typo, other = 222222222222222222, 333333333333333333, 444444444444444444

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        return {"channels": [world.general, gone, typo], "forum_channels": [world.forum, other]}

    caplog.set_level(logging.INFO, logger=LOGGER)
    h = await start_harness(tmp_path, configure=configure)
    await stop_harness(h)
    warnings = [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith(LOGGER) and r.levelno == logging.WARNING
    ]
    assert sorted(warnings) == [
        f"discord: discord.channels: {gone}, {typo} match(es) no channel, category or thread "
        "the bot can see; mentions there are never answered (a wrong, deleted or other "
        "server's id?)",
        f"discord: discord.forum_channels: {other} match(es) no forum channel the bot can "
        "see; its posts are never answered (a wrong, deleted or other server's id?)",
    ]


async def test_listed_channels_the_bot_sees_warn_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        thread = fake.thread_payload(world.guild, world.general, "old talk", 1)  # not cached
        return {"channels": [world.general, thread], "forum_channels": [world.forum]}

    caplog.set_level(logging.INFO, logger=LOGGER)
    h = await start_harness(tmp_path, configure=configure)
    await stop_harness(h)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
