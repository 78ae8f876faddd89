"""The widget whose scripts could not load, in headless Chromium: what a screen reader is told.

Focus stays on the launcher button (there is no question box to move it to), so the panel's
"Cannot reach" message must be an alert to be heard at all; the chat that loads on the next try
must not be one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.connectors.browser.conftest import RunningCitecast, serve_answerer
from tests.connectors.browser.test_web_widget_open_browser import host_site
from tests.connectors.web.conftest import (
    CannedAnswerer,
    LiveServer,
    cited_answer,
    passage,
    start_live_server,
)


@pytest.fixture
async def sites(tmp_path: Path) -> AsyncIterator[tuple[LiveServer, RunningCitecast]]:
    host = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, cors_origins=[host.url])
    yield host, running
    await running.stop()
    await host.stop()


async def test_a_widget_that_could_not_load_says_so_in_an_alert(
    browser: Browser, sites: tuple[LiveServer, RunningCitecast]
) -> None:
    host, running = sites
    page = await browser.new_page()
    try:
        await page.route("**/static/chat.js", lambda route: route.abort())
        await page.goto(f"{host.url}/?citecast={running.url}")
        launcher = page.get_by_role("button", name="Ask citecast")
        await launcher.click()
        panel = page.locator("#citecast-panel")
        alert = panel.get_by_role("alert")
        await expect(alert).to_have_text(f"Cannot reach the citecast server at {running.url}.")
        await expect(launcher).to_be_focused()
        await page.unroute("**/static/chat.js")
        await launcher.click()  # tries again, loading what failed
        await expect(panel.locator(".cc-input")).to_be_focused()
        assert await panel.get_by_role("alert").count() == 0  # the chat is no alert
    finally:
        await page.close()
