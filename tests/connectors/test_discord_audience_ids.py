"""Audience mappings are keyed by Discord ids: a name (``Staff``, ``staff-only``, ``alice``) was
accepted silently and matched nothing, so its groups never applied (found in a QA pass). Names
are refused when the settings load, saying how to copy the id; ids that match nothing the bot
can see are named in one warning per setting when it connects."""

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
        ("audience_by_role", "Staff", "right-click the role → Copy Role ID"),
        ("audience_by_channel", "staff-only", "right-click the channel → Copy Channel ID"),
        ("dm_audience_by_user", "alice", "right-click the user → Copy User ID"),
        ("audience_by_guild", "Docs Guild", "right-click the server icon → Copy Server ID"),
    ],
)
def test_a_name_where_an_id_belongs_is_refused_in_one_line(
    tmp_path: Path, key: str, name: str, how: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"discord:\n  {key}:\n    {name}: [staff]\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    message = str(raised.value)
    assert "\n" not in message
    assert f"discord.{key}: '{name}' is not an id" in message
    assert "Developer Mode" in message and how in message


def test_ids_quoted_or_not_still_load(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        'discord:\n  audience_by_role:\n    567890123456789012: [staff]\n    "42": [board]\n',
        encoding="utf-8",
    )
    roles = load_settings(config).discord.audience_by_role
    assert roles == {"567890123456789012": ["staff"], "42": ["board"]}


async def test_ids_matching_nothing_the_bot_sees_are_named_at_connect(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    gone_role, gone_channel, other_guild = 111111111111111111, 222222222222222222, 3333333333

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        return {
            "audience_by_role": {str(world.staff_role): ["staff"], str(gone_role): ["staff"]},
            "audience_by_channel": {
                str(world.staff_channel): ["staff"],
                str(gone_channel): ["staff"],
            },
            "audience_by_guild": {str(world.guild): ["employees"], str(other_guild): ["x"]},
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
    ]


async def test_known_ids_and_an_archived_thread_warn_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        thread = fake.thread_payload(world.guild, world.general, "old talk", 1)  # not cached
        return {"audience_by_channel": {str(thread): ["staff"]}}

    caplog.set_level(logging.INFO, logger=LOGGER)
    h = await start_harness(tmp_path, configure=configure)
    await stop_harness(h)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
