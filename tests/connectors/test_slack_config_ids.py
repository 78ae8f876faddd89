"""``slack.audience_by_channel`` / ``audience_by_usergroup`` are looked up by id: a name
(``#staff-only``, ``hr-team``) was accepted and silently granted nothing. Names are refused when
the settings load, in one line; ``slack.slash_command`` without its ``/`` is said in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError


def _load(tmp_path: Path, text: str) -> str:
    config = tmp_path / "config.yaml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    message = str(raised.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("key", "name", "hint"),
    [
        ("audience_by_channel", "'#staff-only'", "C…, G… or D…"),
        ("audience_by_channel", "staff-only", "C…, G… or D…"),
        ("audience_by_channel", "c0staff", "C…, G… or D…"),
        ("audience_by_usergroup", "hr-team", "S…"),
        ("audience_by_usergroup", "C0STAFF", "S…"),
    ],
)
def test_a_name_where_a_slack_id_belongs_is_refused_in_one_line(
    tmp_path: Path, key: str, name: str, hint: str
) -> None:
    message = _load(tmp_path, f"slack:\n  {key}:\n    {name}: [staff]\n")
    shown = name.strip("'")
    assert f"slack.{key}: '{shown}' is not an id" in message
    assert hint in message


def test_slack_ids_are_accepted(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        "slack:\n"
        "  audience_by_channel: {C0STAFF: [staff], G0HR: [hr], D0DM1: [me]}\n"
        "  audience_by_usergroup: {' S0HR ': [hr]}\n",
        encoding="utf-8",
    )
    settings = load_settings(config).slack
    assert settings.audience_by_channel == {"C0STAFF": ["staff"], "G0HR": ["hr"], "D0DM1": ["me"]}
    assert settings.audience_by_usergroup == {"S0HR": ["hr"]}


def test_a_slash_command_without_its_slash_says_so(tmp_path: Path) -> None:
    message = _load(tmp_path, "slack:\n  slash_command: citecast\n")
    assert "must start with /" in message
    assert "^(" not in message and "pattern" not in message


@pytest.mark.parametrize("command", ["/Cite", "/", "/" + "x" * 32])
def test_a_bad_slash_command_name_is_said_in_words(tmp_path: Path, command: str) -> None:
    message = _load(tmp_path, f"slack:\n  slash_command: '{command}'\n")
    assert "lowercase letters, digits, - or _" in message


@pytest.mark.parametrize("command", ["", "/citecast", "/ask-docs_2"])
def test_good_slash_commands_load(tmp_path: Path, command: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"slack:\n  slash_command: '{command}'\n", encoding="utf-8")
    assert load_settings(config).slack.slash_command == command
