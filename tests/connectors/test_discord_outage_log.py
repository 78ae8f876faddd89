"""Discord lost while serving: one warning naming the channel, INFO per reconnect attempt, no
traceback, and one line when the gateway takes the bot back (discord.py alone logs each attempt
at ERROR with a chained traceback)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.connectors.test_discord_harness import Harness, start_harness, stop_harness


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage().startswith("discord: ")]


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(30):  # a bound on a hang, not a timed assertion
        while not condition():
            await asyncio.sleep(0.02)


def reconnect_attempts(caplog: pytest.LogCaptureFixture) -> int:
    return sum("still cannot reach Discord" in r.getMessage() for r in caplog.records)


async def lose_discord(h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """Discord goes away while citecast runs, for a few failed reconnect attempts."""
    await h.fake.close()
    await until(lambda: reconnect_attempts(caplog) >= 2)


async def test_losing_the_gateway_mid_run_is_one_warning_and_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    h = await start_harness(tmp_path)
    try:
        with caplog.at_level(logging.INFO):
            await lose_discord(h, caplog)
    finally:
        await stop_harness(h)
    assert [r for r in caplog.records if r.exc_info is not None] == []
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert [r.getMessage().split(" (")[0] for r in warnings] == [
        "discord: lost the connection to Discord"
    ]
    retries = [r for r in outage_lines(caplog) if "still cannot reach Discord" in r.getMessage()]
    assert retries and all(r.levelno == logging.INFO for r in retries)
    assert all("trying again in" in r.getMessage() for r in retries)


async def test_the_connection_back_is_one_line_saying_how_long_it_was_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    h = await start_harness(tmp_path)
    try:
        with caplog.at_level(logging.INFO):
            await lose_discord(h, caplog)
            await h.fake.start(port=h.fake.port)  # Discord is back
            await until(lambda: any("again after" in r.getMessage() for r in caplog.records))
            await asyncio.sleep(0.2)  # a second "back" line would come now
    finally:
        await stop_harness(h)
    back = [r for r in outage_lines(caplog) if "again after" in r.getMessage()]
    assert len(back) == 1 and back[0].levelno == logging.INFO
    assert back[0].getMessage().startswith("discord: connected to Discord again after ")
    assert "session resumed" in back[0].getMessage()
    # the gateway's own line for the same moment is replaced, not repeated
    assert not any("RESUMED" in r.getMessage() for r in caplog.records)
    assert [r for r in caplog.records if r.exc_info is not None] == []


async def test_a_second_outage_is_a_warning_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    h = await start_harness(tmp_path)

    def warnings() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]

    try:
        with caplog.at_level(logging.INFO):
            await lose_discord(h, caplog)
            await h.fake.start(port=h.fake.port)
            await until(lambda: any("again after" in r.getMessage() for r in caplog.records))
            await h.fake.close()  # lost again: logged at once, before discord.py's wait
            await until(lambda: len(warnings()) == 2)
    finally:
        await stop_harness(h)
    assert all(m.startswith("discord: lost the connection to Discord") for m in warnings())
