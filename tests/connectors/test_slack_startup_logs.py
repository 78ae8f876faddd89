"""What a new Slack setup sees at start: no warning about the token it exported as the README
says, log lines that say what happened when Slack cannot be reached, and every missing or
misplaced credential named in one message."""

from __future__ import annotations

import asyncio
import logging
import socket
from pathlib import Path

import pytest

from bot.config import SlackSettings
from bot.connectors import slack
from bot.errors import ConfigError
from tests.connectors.slack_harness import (
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
    unreachable_slack_world,
)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_an_exported_bot_token_gives_no_bolt_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-from-the-environment")
    with caplog.at_level(logging.WARNING):
        async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
            await world.connector.start()
            # the client still carries the configured token, and the app uses that client
            assert world.connector.app.client.token == world.fake.bot_token
    assert [r.getMessage() for r in caplog.records if r.name.startswith("bot.")] == []


async def test_other_bolt_warnings_still_come_through(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))):
        with caplog.at_level(logging.WARNING):
            logging.getLogger("bot.connectors.slack.bolt").warning("something else")
    assert [r.getMessage() for r in caplog.records] == ["something else"]


async def test_an_unreachable_slack_is_logged_as_unreachable_not_as_an_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    down = f"http://127.0.0.1:{closed_port()}/api/"
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, api_base_url=down, max_retries=2) as world:
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            await world.connector.start()
    retries = [r.getMessage() for r in caplog.records if "retrying in" in r.getMessage()]
    assert len(retries) == 2
    assert all(m.startswith("cannot reach Slack (ClientConnectorError: ") for m in retries)
    assert all("auth.test" in m for m in retries)
    assert not any("Slack answered" in r.getMessage() for r in caplog.records)


def message(settings: SlackSettings) -> str:
    with pytest.raises(ConfigError) as refused:
        slack.check_settings(settings)
    return str(refused.value)


def test_every_missing_credential_is_named_in_one_message() -> None:
    assert message(SlackSettings(enabled=True)) == (
        "slack.bot_token: empty (set it to ${SLACK_BOT_TOKEN}); "
        "slack.signing_secret: required in HTTP mode (${SLACK_SIGNING_SECRET})"
    )
    assert message(SlackSettings(enabled=True, mode="socket")) == (
        "slack.bot_token: empty (set it to ${SLACK_BOT_TOKEN}); "
        "slack.app_token: Socket Mode needs an app-level token (xapp-…)"
    )


def test_an_app_token_in_the_bot_token_key_is_refused_with_where_it_goes() -> None:
    text = message(SlackSettings(enabled=True, bot_token="xapp-1-A0-1-ab", signing_secret="s"))
    assert text.startswith("slack.bot_token: this is an app-level token (xapp-…)")
    assert "xoxb-" in text and "slack.app_token" in text and "\n" not in text


def test_a_bot_token_in_the_app_token_key_is_refused_with_where_it_goes() -> None:
    settings = SlackSettings(enabled=True, mode="socket", bot_token="xoxb-1", app_token="xoxb-1")
    text = message(settings)
    assert text.startswith("slack.app_token: this is a bot token (xoxb-…)")
    assert "connections:write" in text and "SLACK_APP_TOKEN" in text


def test_swapped_tokens_are_both_named_at_once() -> None:
    settings = SlackSettings(enabled=True, mode="socket", bot_token="xapp-1", app_token="xoxb-1")
    text = message(settings)
    assert text.startswith("slack.bot_token: this is an app-level token")
    assert "; slack.app_token: this is a bot token" in text


def test_a_bot_token_left_in_the_unused_app_token_key_of_http_mode_is_harmless() -> None:
    settings = SlackSettings(
        enabled=True, bot_token="xoxb-1", app_token="xoxb-1", signing_secret="s"
    )
    slack.check_settings(settings)


async def test_a_slack_down_at_start_warns_once_then_checks_the_token_when_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The README: one warning, each retry an INFO line (not also slack_sdk's own line for
    it), and the bot token checked once Slack can be reached."""
    answerer = CannedAnswerer(answer_citing(1))
    async with unreachable_slack_world(tmp_path, answerer, max_retries=2) as world:
        with caplog.at_level(logging.INFO):
            await world.connector.start()
            at_start = [r.getMessage() for r in caplog.records]
            assert not any("A retry handler found" in m for m in at_start)
            assert len([m for m in at_start if m.startswith("cannot reach Slack")]) == 2
            await world.fake.come_up()
            await asyncio.wait_for(world.connector.token_checked(), timeout=60)
        assert len(world.fake.calls_to("auth.test", ok_only=True)) == 1
        await world.post_event(mention("answered once Slack is up"))
        assert len(world.fake.bot_messages("C0PUBLIC")) == 1
    [warning] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert warning.getMessage().startswith(
        "could not check the Slack bot token (ClientConnectorError); serving anyway"
    )
    retries = [r for r in caplog.records if "cannot reach Slack" in r.getMessage()]
    assert {r.levelno for r in retries} == {logging.INFO}
    assert not any("A retry handler found" in r.getMessage() for r in caplog.records)
    assert any("accepts the bot token" in r.getMessage() for r in caplog.records)


async def test_a_token_refused_once_slack_is_up_is_an_error_naming_the_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with unreachable_slack_world(
        tmp_path, answerer, max_retries=1, bot_token="xoxb-old"
    ) as world:
        with caplog.at_level(logging.INFO):
            await world.connector.start()
            await world.fake.come_up()
            await asyncio.wait_for(world.connector.token_checked(), timeout=60)
    [error] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert error.getMessage().startswith(
        "slack.bot_token: Slack refused the bot token (invalid_auth); copy the Bot User OAuth"
    )
    assert "SLACK_BOT_TOKEN" in error.getMessage() and error.exc_info is None


async def test_socket_mode_with_slack_down_at_start_warns_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Neither the bot token nor the app-level token can be checked: one warning says so."""
    answerer = CannedAnswerer(answer_citing(1))
    async with unreachable_slack_world(
        tmp_path, answerer, mode="socket", signing_secret="", max_retries=1
    ) as world:
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            await world.connector.start()
        [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert "could not check the Slack bot token" in warning.getMessage()
        assert any("Socket Mode connection yet" in r.getMessage() for r in caplog.records)
