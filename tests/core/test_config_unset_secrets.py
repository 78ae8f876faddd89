"""A connector's credential left blank by an unset ``${NAME}`` says that the variable is unset.

Found in a new-user walkthrough: with ``bot_token: ${SLACK_BOT_TOKEN}`` in config.yaml and the
variable not exported, ``citecast serve`` said ``slack.bot_token: empty (set it to
${SLACK_BOT_TOKEN})``, which only repeats what the file already says. Every token, secret and
password check of the connectors now names the variable and what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.config import Settings
from bot.config_file import load_settings
from bot.connectors import discord, discourse_settings, email, slack
from bot.errors import ConfigError
from tests.connectors.test_serve_refuses_bad_config import assert_refused, serve

VAR = "CITECAST_TEST_SECRET"


def _loaded(tmp_path: Path, text: str) -> Settings:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return load_settings(path)


def _message(check: Callable[[], None]) -> str:
    with pytest.raises(ConfigError) as caught:
        check()
    return str(caught.value)


def test_an_unset_slack_token_is_named_as_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(VAR, raising=False)
    settings = _loaded(
        tmp_path, f"slack:\n  enabled: true\n  bot_token: ${{{VAR}}}\n  signing_secret: s\n"
    )
    assert _message(lambda: slack.check_settings(settings.slack)) == (
        f"slack.bot_token: empty: ${{{VAR}}} is not set in the environment"
    )


def test_serve_says_the_variable_is_unset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(VAR, raising=False)  # the server process inherits this environment
    section = {"enabled": True, "bot_token": f"${{{VAR}}}", "signing_secret": "s"}
    done = serve(tmp_path, {"slack": section})
    assert_refused(done, f"slack.bot_token: empty: ${{{VAR}}} is not set in the environment\n")


def test_a_variable_set_to_nothing_is_named_as_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VAR, "")
    settings = _loaded(tmp_path, f"discord:\n  enabled: true\n  token: ${{{VAR}}}\n")
    assert _message(lambda: discord.check_settings(settings.discord)) == (
        f"discord.token: empty: ${{{VAR}}} is empty in the environment"
    )


@pytest.mark.parametrize(
    ("section", "check", "expected"),
    [
        (
            "slack:\n  enabled: true\n  bot_token: xoxb-1\n  signing_secret: ${V}\n",
            lambda s: slack.check_settings(s.slack),
            "slack.signing_secret: required in HTTP mode: ${V} is not set in the environment",
        ),
        (
            "slack:\n  enabled: true\n  bot_token: xoxb-1\n  mode: socket\n  app_token: ${V}\n",
            lambda s: slack.check_settings(s.slack),
            "slack.app_token: Socket Mode needs an app-level token (xapp-…): "
            "${V} is not set in the environment",
        ),
        (
            "discord:\n  enabled: true\n  token: ${V}\n",
            lambda s: discord.check_settings(s.discord),
            "discord.token: empty: ${V} is not set in the environment",
        ),
        (
            "discourse:\n  enabled: true\n  base_url: https://forum.example\n"
            "  api_key: ${V}\n  webhook_secret: w\n  categories: [1]\n",
            lambda s: discourse_settings.check_settings(s.discourse),
            "discourse.api_key: required when discourse is enabled "
            "(${V} is not set in the environment)",
        ),
        (
            "email:\n  enabled: true\n  address: help@example.com\n  inbound: imap\n"
            "  imap:\n    host: imap.example.com\n    username: help\n    password: ${V}\n",
            lambda s: email.check_settings(s.email),
            "email.imap.password: empty: ${V} is not set in the environment; "
            "the mailbox cannot be logged in to",
        ),
        (
            "email:\n  enabled: true\n  address: help@example.com\n  listen_port: 0\n"
            "  outbound:\n    username: help\n    password: ${V}\n",
            lambda s: email.check_settings(s.email),
            "email.outbound.password: empty while email.outbound.username is set: "
            "${V} is not set in the environment; every reply would be refused",
        ),
    ],
    ids=["slack-signing", "slack-app", "discord", "discourse", "email-imap", "email-outbound"],
)
def test_every_connector_credential_names_its_unset_variable(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    section: str,
    check: Callable[[Settings], None],
    expected: str,
) -> None:
    monkeypatch.delenv(VAR, raising=False)
    settings = _loaded(tmp_path, section.replace("${V}", f"${{{VAR}}}"))
    assert _message(lambda: check(settings)) == expected.replace("${V}", f"${{{VAR}}}")


def test_a_key_left_out_keeps_the_advice_on_what_to_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(VAR, raising=False)
    settings = _loaded(tmp_path, "slack:\n  enabled: true\n")
    # every missing key at once, each with its advice (not one per run)
    assert _message(lambda: slack.check_settings(settings.slack)) == (
        "slack.bot_token: empty (set it to ${SLACK_BOT_TOKEN}); "
        "slack.signing_secret: required in HTTP mode (${SLACK_SIGNING_SECRET})"
    )


def test_settings_built_in_code_have_no_note_from_an_earlier_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(VAR, raising=False)
    _loaded(tmp_path, f"discord:\n  enabled: true\n  token: ${{{VAR}}}\n")
    built = Settings.model_validate({"discord": {"enabled": True}})
    assert _message(lambda: discord.check_settings(built.discord)) == (
        "discord.token: empty; set it to ${DISCORD_BOT_TOKEN}"
    )
