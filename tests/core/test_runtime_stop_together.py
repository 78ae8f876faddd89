"""The app stops its connectors all at once, and the server can begin that stop early.

Stopped one after the other, each connector's grace period for answers in flight came after
the previous one's (the sum of them, well past Docker's ten seconds), and a channel kept taking
new questions while another one drained.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import BaseRoute

from bot.connectors.app import build_app
from bot.connectors.base import Connector
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, make_settings, passage


class Draining:
    """A connector whose stop waits until every connector of the app has begun stopping."""

    def __init__(self, name: str, stopping: set[str], everyone: int) -> None:
        self.name = name
        self.stopping = stopping
        self.everyone = everyone
        self.stops = 0
        self.saw_others_stopping = False

    def routes(self) -> list[BaseRoute]:
        return []

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        self.stops += 1
        self.stopping.add(self.name)
        # a drain in progress: a few turns of the loop let any stop begun with ours start too
        for _ in range(5):
            await asyncio.sleep(0)
        self.saw_others_stopping = len(self.stopping) == self.everyone


def make_app(tmp_path: Path, connectors: list[Connector]) -> Starlette:
    settings = make_settings(tmp_path)
    services = Services(
        settings=settings,
        store=Store(settings.store.path),
        assistant=CannedAnswerer(cited_answer(passage(1))),
    )
    return build_app(services, connectors=connectors, shutdown_grace=0.1)


async def test_every_connector_drains_while_the_others_do(tmp_path: Path) -> None:
    stopping: set[str] = set()
    channels = [Draining(name, stopping, 3) for name in ("slack", "discord", "email")]
    app = make_app(tmp_path, list(channels))
    async with app.router.lifespan_context(app):
        pass
    assert stopping == {"slack", "discord", "email"}
    assert [channel.saw_others_stopping for channel in channels] == [True, True, True]


async def test_a_stop_the_server_began_early_is_the_one_the_lifespan_ends_with(
    tmp_path: Path,
) -> None:
    stopping: set[str] = set()
    channel = Draining("slack", stopping, 1)
    app = make_app(tmp_path, [channel])
    async with app.router.lifespan_context(app):
        begun = app.state.begin_shutdown()
        await begun  # the channel stopped while the app was still serving HTTP
        assert stopping == {"slack"}
    assert channel.stops == 1
