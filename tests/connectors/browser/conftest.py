"""Browser-test harness: the real app under uvicorn, the real extractive Assistant over the
sample knowledge base (ingested into tmp_path), and Debian's headless Chromium via Playwright."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.async_api import Browser, Page

from bot.assistant.base import Answerer, ReplyEvent
from bot.config import Settings
from bot.config_file import parse_settings
from bot.connectors.app import build_app
from bot.models import Exchange
from bot.runtime import Services
from bot.store import Store
from tests.chromium import launch_chromium
from tests.connectors.browser.scripted_stream import Script, scripted_app
from tests.connectors.web.conftest import CannedAnswerer, LiveServer, start_live_server

if TYPE_CHECKING:
    from tests.connectors.browser.widget_host import Embedded

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"


def browser_settings(tmp_path: Path, **web: Any) -> Settings:
    """Settings with the index and store under ``tmp_path``."""
    return parse_settings(
        {
            "index": {"path": str(tmp_path / "index.db")},
            "store": {"path": str(tmp_path / "store.db")},
            "web": {"file_secret": "browser-test-secret-0123456789", **web},
        }
    )


def ingest_examples(settings: Settings) -> None:
    """Build the index from the sample knowledge base, as ``make serve`` does."""
    from bot.knowledge.ingest import ingest

    ingest([EXAMPLES], settings.index)


@dataclass
class RunningCitecast:
    """The app with the real Assistant, served on a loopback port."""

    services: Services
    live: LiveServer

    @property
    def url(self) -> str:
        return self.live.url

    async def stop(self) -> None:
        """Stop serving and close the store."""
        await self.live.stop()
        self.services.store.close()


async def start_citecast(tmp_path: Path, **web: Any) -> RunningCitecast:
    """Ingest examples/ into tmp_path and serve the real app with the real Assistant."""
    return await serve_citecast(browser_settings(tmp_path, **web))


async def serve_citecast(settings: Settings) -> RunningCitecast:
    """Serve the real app and Assistant with ``settings`` (examples/ ingested if no index)."""
    from bot.assistant import Assistant

    if not Path(settings.index.path).exists():
        ingest_examples(settings)
    services = Services(
        settings=settings,
        store=Store(settings.store.path),
        assistant=Assistant.from_settings(settings),
    )
    live = await start_live_server(build_app(services, connectors=[], shutdown_grace=1))
    return RunningCitecast(services, live)


async def serve_answerer(tmp_path: Path, answerer: Answerer, **web: Any) -> RunningCitecast:
    """Serve the real app with a scripted ``answerer`` (for answers the sample knowledge base
    does not give: a wide table, a slow stream, a failure)."""
    settings = browser_settings(tmp_path, **web)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    live = await start_live_server(build_app(services, connectors=[], shutdown_grace=1))
    return RunningCitecast(services, live)


async def ask(page: Page, question: str) -> None:
    """Type ``question`` into the chat's question box and press Enter."""
    await page.get_by_label("Your question").fill(question)
    await page.get_by_label("Your question").press("Enter")


@dataclass
class SlowAnswerer(CannedAnswerer):
    """A CannedAnswerer that waits ``delay`` seconds before each piece it streams."""

    delay: float = 0.05

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        async for event in super().stream(question, audience, history):
            await asyncio.sleep(self.delay)
            yield event


@pytest.fixture
async def citecast(tmp_path: Path) -> AsyncIterator[RunningCitecast]:
    running = await start_citecast(tmp_path)
    yield running
    await running.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with launch_chromium() as launched:
        yield launched


@pytest.fixture
async def page(browser: Browser) -> AsyncIterator[Page]:
    """A new page in its own context, closed after the test."""
    fresh = await browser.new_page()
    yield fresh
    await fresh.context.close()


@pytest.fixture
async def scripted() -> AsyncIterator[tuple[Script, LiveServer]]:
    """A loopback chat whose answer stream the test writes event by event (``Script``)."""
    script = Script()
    live = await start_live_server(scripted_app(script))
    yield script, live
    script.end()
    await live.stop()


@pytest.fixture
async def embedded(tmp_path: Path) -> AsyncIterator[Embedded]:
    """citecast, and another site that embeds its widget (``widget_host``)."""
    from tests.connectors.browser.widget_host import Embedded, host_site  # it imports this file

    host = await start_live_server(host_site())
    running = await start_citecast(tmp_path, cors_origins=[host.url])
    yield Embedded(host, running)
    await running.stop()
    await host.stop()


def publish_screenshot(source: Path) -> None:
    """With CITECAST_UPDATE_SCREENSHOT=1, copy the chat screenshot into docs/ for the README."""
    if os.environ.get("CITECAST_UPDATE_SCREENSHOT") == "1":
        (REPO / "docs").mkdir(exist_ok=True)
        shutil.copyfile(source, REPO / "docs" / "screenshot-chat.png")
