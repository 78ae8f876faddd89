"""Discord ids written without quotes as mapping keys load as the same ids.

Found in a QA pass of the configuration: ``channels: [456789012345678901]`` takes ids as YAML
numbers, but ``audience_by_channel: {456789012345678901: [staff]}`` stopped every command with
"discord.audience_by_channel.456789012345678901.[key]: Input should be a valid string".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError

CONFIG = """\
discord:
  channels: [456789012345678901]
  audience_by_guild:
    345678901234567890: [public, employees]
  audience_by_channel:
    456789012345678901: [public, staff]
    "456789012345678902": [board]
  audience_by_role:
    567890123456789012: [staff]
  dm_audience_by_user:
    678901234567890123: [staff]
"""


def test_unquoted_ids_are_keys_as_the_connector_looks_them_up(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    discord = load_settings(config).discord
    assert discord.audience_by_guild == {"345678901234567890": ["public", "employees"]}
    assert discord.audience_by_channel == {
        "456789012345678901": ["public", "staff"],
        "456789012345678902": ["board"],
    }
    assert discord.audience_by_role == {"567890123456789012": ["staff"]}
    assert discord.dm_audience_by_user == {"678901234567890123": ["staff"]}


def test_a_key_that_is_not_an_id_is_still_refused(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("discord:\n  audience_by_role:\n    1.5: [staff]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"discord\.audience_by_role\.1\.5"):
        load_settings(config)
