"""Discord out of reach for a while at start: one warning, then quieter lines until it connects
(as the README promises), and a warning again only when the reason changes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import discord
import pytest

from bot.connectors.discord_connect import keep_trying
from tests.connectors.test_discord_harness import (
    stop_harness,
)
from tests.connectors.test_discord_unreachable import offline_harness

LOGGER = "bot.connectors"


def unreachable_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        r for r in caplog.records if r.name.startswith(LOGGER) and "reach Discord" in r.getMessage()
    ]


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(30):  # a bound on a hang, not a timed assertion
        while not condition():
            await asyncio.sleep(0.02)


async def test_an_offline_start_is_one_warning_then_info_until_it_connects(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    h = offline_harness(tmp_path)
    fake, connector = h.fake, h.connector
    try:
        await connector.start()
        await until(lambda: len(unreachable_lines(caplog)) >= 4)  # three retries failed
        await fake.start(port=fake.port)  # Discord is back
        await asyncio.wait_for(connector.ready.wait(), timeout=30)
    finally:
        await stop_harness(h)
    lines = unreachable_lines(caplog)
    assert [r.levelno for r in lines].count(logging.WARNING) == 1
    assert lines[0].levelno == logging.WARNING
    assert all(r.levelno == logging.INFO for r in lines[1:])
    assert any("connected as" in r.getMessage() for r in caplog.records)


async def test_a_new_reason_is_a_warning_again(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    reasons = iter([OSError("no route"), OSError("no route"), TimeoutError("slow")])
    connected = asyncio.Event()
    clients: list[discord.Client] = []
    tasks: list[asyncio.Task[None]] = []

    async def fail(error: BaseException) -> None:
        raise error

    async def serve() -> None:
        connected.set()
        await asyncio.Event().wait()

    def launch() -> tuple[discord.Client, asyncio.Task[None]]:
        client = discord.Client(intents=discord.Intents.none())
        clients.append(client)
        error = next(reasons, None)
        task = asyncio.create_task(fail(error) if error is not None else serve())
        tasks.append(task)
        return client, task

    await keep_trying(launch, connected, 0.0, "OSError: no route")
    tasks[-1].cancel()  # the one that "connected"
    await asyncio.gather(*tasks, return_exceptions=True)
    for client in clients:
        await client.close()
    assert [(r.levelno, r.getMessage()) for r in unreachable_lines(caplog)] == [
        (
            logging.INFO,
            "discord: still cannot reach Discord (OSError: no route); trying again in 0.2s",
        ),
        (
            logging.INFO,
            "discord: still cannot reach Discord (OSError: no route); trying again in 0.4s",
        ),
        (
            logging.WARNING,
            "discord: still cannot reach Discord (TimeoutError: slow); trying again in 0.8s",
        ),
    ]
