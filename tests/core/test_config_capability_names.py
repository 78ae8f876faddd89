"""A misspelt capability names the closest known one, as every other unknown key does.

Found in a QA pass of the configuration: README promises "an unknown key with the closest known
one", but ``capabilities.discord.embed`` only said "unknown capability".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError


@pytest.mark.parametrize(
    ("section", "reason"),
    [
        ("discord:\n    embed: true", "discord.embed: unknown capability (did you mean embeds?)"),
        ("slack:\n    max_chrs: 3", "slack.max_chrs: unknown capability (did you mean max_chars?)"),
        ("slack:\n    zzz: 3", "slack.zzz: unknown capability"),
        ("slak:\n    max_chrs: 3", "slak: unknown channel (did you mean slack?)"),
        ("zzz:\n    max_chrs: 3", "zzz: unknown channel (channels: web, slack, discord, email, "),
    ],
    ids=["embeds", "max_chars", "nothing-close", "channel-first", "no-channel-close"],
)
def test_an_unknown_capability_names_the_closest(tmp_path: Path, section: str, reason: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"capabilities:\n  {section}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    assert str(raised.value).startswith(f"{config}: capabilities.{reason}")


def test_known_capabilities_still_load(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("capabilities:\n  discord:\n    embeds: true\n", encoding="utf-8")
    assert load_settings(config).capabilities == {"discord": {"embeds": True}}
