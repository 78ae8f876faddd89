"""``discourse.api_key`` and ``base_url`` are checked at start, as Slack's and Discord's tokens
are: a key the forum refuses, or an address that is not the forum's, stops the start in one line
saying what to fix; a forum that cannot be asked now is one warning, and serving goes on."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest

from bot.errors import ConfigError
from tests.connectors.discourse_harness import forum, opened_harness
from tests.fakes.discourse_api import FakeDiscourse

LOGGER = "bot.connectors"
__all__ = ["forum"]  # the fixture


def closed_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def messages(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.name.startswith(LOGGER) and r.levelno == level
    ]


async def test_a_key_the_forum_takes_is_logged_with_its_user(
    forum: FakeDiscourse, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    async with opened_harness(forum, tmp_path) as h:
        await h.connector.start()
    assert ("GET", "/session/current.json", 200) in forum.requests
    assert "discourse: the API key acts as citecast" in messages(caplog, logging.INFO)
    assert messages(caplog, logging.WARNING) == []


async def test_a_granular_key_is_not_taken_for_a_wrong_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    async with FakeDiscourse(granular_key=True) as fake, opened_harness(fake, tmp_path) as h:
        await h.connector.start()
    assert fake.requests[:2] == [
        ("GET", "/session/current.json", 403),
        ("GET", "/t/0.json", 404),
    ]
    assert any("the forum takes the API key" in m for m in messages(caplog, logging.INFO))
    assert messages(caplog, logging.WARNING) == []


@pytest.mark.parametrize("granular", [False, True], ids=["global-key", "granular-key"])
async def test_a_refused_key_stops_the_start_in_one_line(tmp_path: Path, granular: bool) -> None:
    async with (
        FakeDiscourse(granular_key=granular) as fake,
        opened_harness(fake, tmp_path, api_key="old-key") as h,
    ):
        with pytest.raises(ConfigError) as refused:
            await h.connector.start()
    text = str(refused.value)
    assert text.startswith("discourse.api_key: the forum refused the API key for user 'citecast'")
    assert "DISCOURSE_API_KEY" in text and "api_username" in text and "\n" not in text


async def test_a_username_that_is_not_the_key_s_user_is_named(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path, api_username="helpbot") as h:
        with pytest.raises(
            ConfigError, match=r"^discourse\.api_key: .* for user 'helpbot' \(403\)"
        ):
            await h.connector.start()


async def test_an_address_that_is_not_the_forum_s_stops_the_start(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.redirect_to = "https://forum.example"
    async with opened_harness(forum, tmp_path) as h:
        with pytest.raises(ConfigError) as refused:
            await h.connector.start()
    assert str(refused.value).startswith(f"discourse.base_url: '{forum.url}' does not answer as")


async def test_an_unreachable_forum_is_one_warning_and_serving_goes_on(
    forum: FakeDiscourse, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    down = closed_url()
    async with opened_harness(forum, tmp_path, base_url=down) as h:
        await h.connector.start()
        assert h.connector._worker is not None  # the outbox runs: replies go once it is back
    [warning] = messages(caplog, logging.WARNING)
    assert warning.startswith(f"discourse: could not check the API key with {down} (")
    assert warning.endswith("); serving anyway")


async def test_a_forum_failing_at_start_is_one_warning_and_serving_goes_on(
    forum: FakeDiscourse, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    forum.fail("/session/current.json", status=502)
    async with opened_harness(forum, tmp_path) as h:
        await h.connector.start()
    [warning] = messages(caplog, logging.WARNING)
    assert "could not check the API key" in warning and "502" in warning
