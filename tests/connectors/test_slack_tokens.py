"""Tokens Slack refuses stop ``citecast serve`` at start in one line naming the key; a Slack that
cannot be asked does not."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from starlette.applications import Starlette

from bot.connectors.app import build_app
from bot.errors import ConfigError
from tests.connectors.slack_harness import CannedAnswerer, answer_citing, mention, slack_world


async def test_a_refused_bot_token_fails_start_in_one_line(tmp_path: Path) -> None:
    async with slack_world(
        tmp_path, CannedAnswerer(answer_citing(1)), bot_token="xoxb-old"
    ) as world:
        with pytest.raises(ConfigError) as refused:
            await world.connector.start()
        message = str(refused.value)
        assert message.startswith("slack.bot_token: Slack refused the bot token (invalid_auth)")
        assert "SLACK_BOT_TOKEN" in message and "\n" not in message


async def test_serve_stops_with_the_refused_token_as_its_error(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, bot_token="xoxb-revoked") as world:
        services = world.connector.services
        app: Starlette = build_app(services, connectors=[world.connector], shutdown_grace=1.0)
        stopped: list[bool] = []
        app.state.stop_server = lambda: stopped.append(True)  # as run_server sets it
        async with app.router.lifespan_context(app):
            pass
        assert stopped == [True]
        assert str(app.state.startup_error).startswith("slack.bot_token: Slack refused")


async def test_a_refused_app_token_fails_start_instead_of_retrying_forever(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path, answerer, mode="socket", signing_secret="", app_token="xapp-wrong"
    ) as world:
        with pytest.raises(ConfigError, match=r"^slack\.app_token: Slack refused the app-level"):
            await world.connector.start()
        assert len(world.fake.calls_to("apps.connections.open")) == 1


async def test_an_unreachable_slack_at_start_is_one_warning_and_serving_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        world.fake.fail("auth.test", status=503, times=4)
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await world.connector.start()
        [warning] = [r for r in caplog.records if r.name.startswith("bot.connectors")]
        assert "could not check the Slack bot token" in warning.getMessage()
        assert warning.exc_info is None
        await world.post_event(mention("still answered"))
        assert len(world.fake.bot_messages("C0PUBLIC")) == 1
