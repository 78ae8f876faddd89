"""Discourse: settings sent as HTTP headers are checked at start, never shown.

``api_key`` and ``api_username`` travel as the ``Api-Key`` and ``Api-Username`` headers, and
``webhook_secret`` must equal the forum's byte for byte. A value from a secret file ending in a
line break, or holding a character no header can carry, stops ``citecast serve`` with one line
naming the setting; the line never holds the value (two of the three are secrets).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.connectors.discourse_settings import check_settings
from bot.connectors.discourse_start import check_forum
from bot.errors import ConfigError
from tests.connectors.discourse_harness import SECRET, make_harness, settings_for
from tests.fakes.discourse_api import FakeDiscourse

VALUES = {
    "api_key": "k3y-that-must-stay-secret",
    "webhook_secret": SECRET,
    "api_username": "citecast",
}
DAMAGE = {
    "a trailing newline": lambda v: v + "\n",
    "a trailing CRLF": lambda v: v + "\r\n",
    "a leading space": lambda v: " " + v,
    "a tab inside": lambda v: v[:3] + "\t" + v[3:],
    "a non-ASCII letter": lambda v: v + "é",
}


@pytest.mark.parametrize("damage", list(DAMAGE))
@pytest.mark.parametrize("field", list(VALUES))
async def test_a_setting_no_header_can_carry_stops_serve_without_showing_it(
    tmp_path: Path, field: str, damage: str
) -> None:
    async with FakeDiscourse(api_key=VALUES["api_key"]) as forum:
        value = DAMAGE[damage](VALUES[field])
        overrides: dict[str, Any] = {field: value}
        if field != "api_key":
            overrides["api_key"] = VALUES["api_key"]
        settings = settings_for(forum, tmp_path, **overrides).discourse
        with pytest.raises(ConfigError) as refused:
            check_settings(settings)
        line = str(refused.value)
        assert line.startswith(f"discourse.{field}: "), line
        assert "\n" not in line
        if field != "api_username":
            assert VALUES[field] not in line, line


async def test_a_key_with_a_line_break_is_refused_by_the_forum_check_unsent(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``check_forum`` refuses it too (it runs after ``check_settings``, but must not rely on
    it): nothing is sent, and nothing is logged that holds the key."""
    async with FakeDiscourse(api_key=VALUES["api_key"]) as forum:
        settings = settings_for(forum, tmp_path, api_key=VALUES["api_key"] + "\n").discourse
        with caplog.at_level(logging.DEBUG), pytest.raises(ConfigError) as refused:
            await check_forum(settings)
        assert str(refused.value).startswith("discourse.api_key: ")
        assert forum.requests == []
        assert not any(VALUES["api_key"] in r.getMessage() for r in caplog.records)


async def test_a_non_ascii_bot_username_is_refused_with_a_hint(tmp_path: Path) -> None:
    """Discourse compares Api-Username with the user's name as the header arrives (no
    percent-decoding), so a unicode username cannot be sent: one line, naming what to do."""
    async with FakeDiscourse(users=("citecast", "bötli")) as forum:
        settings = settings_for(forum, tmp_path, api_username="bötli").discourse
        with pytest.raises(ConfigError) as at_settings:
            check_settings(settings)
        with pytest.raises(ConfigError) as at_forum:
            await check_forum(settings)
        for line in (str(at_settings.value), str(at_forum.value)):
            assert line.startswith("discourse.api_username: 'bötli' is not ASCII"), line
            assert "ASCII username" in line
        assert forum.requests == []


async def test_a_clean_key_still_passes_the_checks(tmp_path: Path) -> None:
    async with FakeDiscourse(api_key=VALUES["api_key"]) as forum:
        settings = settings_for(forum, tmp_path, api_key=VALUES["api_key"]).discourse
        check_settings(settings)
        await check_forum(settings)
        assert forum.requests


async def test_a_webhook_secret_from_a_secret_file_stops_the_connector_at_start(
    tmp_path: Path,
) -> None:
    """The forum's secret field cannot hold a line break: rather than 403 for every delivery
    ("does not match the body"), the connector refuses to start, naming the setting."""
    async with FakeDiscourse() as forum:
        with pytest.raises(ConfigError) as refused:
            await make_harness(forum, tmp_path, webhook_secret=SECRET + "\n")
    line = str(refused.value)
    assert line.startswith("discourse.webhook_secret: starts or ends with"), line
    assert SECRET not in line
