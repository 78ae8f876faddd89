"""Opening the widget while its scripts are still loading, or after they could not load, in
headless Chromium: the panel always holds exactly one chat."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, Route, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route as StarletteRoute

from tests.connectors.browser.conftest import RunningCitecast, serve_answerer
from tests.connectors.web.conftest import (
    CannedAnswerer,
    LiveServer,
    cited_answer,
    passage,
    start_live_server,
)

SHADOW = "document.querySelector('#citecast-widget').shadowRoot"


def host_site() -> Starlette:
    """A site embedding the widget (its citecast URL in the query)."""

    async def page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme</title></head><body>"
            f'<h1>Acme</h1><script src="{citecast}/widget.js" data-citecast async></script>'
            "</body></html>"
        )

    return Starlette(routes=[StarletteRoute("/", page)])


@dataclass
class Embedded:
    host: LiveServer
    citecast: RunningCitecast


@pytest.fixture
async def embedded(tmp_path: Path) -> AsyncIterator[Embedded]:
    host = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, cors_origins=[host.url])
    yield Embedded(host, running)
    await running.stop()
    await host.stop()


async def chats_and_scripts(page: Page) -> list[int]:
    """How many chats the panel holds, and how many times chat.js was added to the page."""
    counts: list[int] = await page.evaluate(
        f"""() => [{SHADOW}.querySelectorAll('.cc-chat').length,
                   document.querySelectorAll('script[src*="/static/chat.js"]').length]"""
    )
    return counts


async def test_a_double_click_while_the_widget_loads_opens_one_chat(
    browser: Browser, embedded: Embedded
) -> None:
    page = await browser.new_page()
    held: list[Route] = []
    first_module = asyncio.Event()

    async def hold(route: Route) -> None:
        # the first module is held until both clicks are in: the widget is still loading
        if first_module.is_set():
            await route.continue_()  # a second load of it (the old behaviour)
            return
        held.append(route)
        first_module.set()

    try:
        await page.route("**/static/sources.js*", hold)
        await page.goto(f"{embedded.host.url}/?citecast={embedded.citecast.url}")
        launcher = page.get_by_role("button", name="Ask citecast")
        await launcher.click()
        await asyncio.wait_for(first_module.wait(), 10)
        await launcher.click()
        for route in held:
            await route.continue_()
        panel = page.locator("#citecast-panel")
        await expect(panel).to_be_visible()
        await expect(panel.locator(".cc-input")).to_be_focused()
        await expect(launcher).to_have_attribute("aria-expanded", "true")
        assert await chats_and_scripts(page) == [1, 1]
        await expect(panel.get_by_role("button", name="Ask", exact=True)).to_have_count(1)
    finally:
        await page.close()


async def test_opening_again_after_a_failed_load_shows_only_the_chat(
    browser: Browser, embedded: Embedded
) -> None:
    page = await browser.new_page()
    try:
        await page.route("**/static/chat.js*", lambda route: route.abort())
        await page.goto(f"{embedded.host.url}/?citecast={embedded.citecast.url}")
        launcher = page.get_by_role("button", name="Ask citecast")
        await launcher.click()
        panel = page.locator("#citecast-panel")
        await expect(panel).to_contain_text("Cannot reach the citecast server at")
        await page.unroute("**/static/chat.js*")
        await launcher.click()  # tries again, the panel still open, loading what failed
        await expect(panel.locator(".cc-input")).to_be_focused()
        await expect(panel).not_to_contain_text("Cannot reach the citecast server")
        assert await panel.locator(".cc-root.cc-error").count() == 0
        assert (await chats_and_scripts(page))[0] == 1
    finally:
        await page.close()


async def test_escape_that_cancels_an_input_method_word_keeps_the_panel_open(
    browser: Browser, embedded: Embedded
) -> None:
    page = await browser.new_page()
    try:
        await page.goto(f"{embedded.host.url}/?citecast={embedded.citecast.url}")
        await page.get_by_role("button", name="Ask citecast").click()
        box = page.locator("#citecast-panel .cc-input")
        await expect(box).to_be_focused()
        # what the browser sends while a Japanese or Chinese word is being composed
        await box.evaluate(
            """box => box.dispatchEvent(new KeyboardEvent('keydown',
                 {key: 'Escape', isComposing: true, bubbles: true, composed: true}))"""
        )
        await expect(page.locator("#citecast-panel")).to_be_visible()
        await box.press("Escape")  # once the word is done, Escape closes the panel
        await expect(page.locator("#citecast-panel")).to_be_hidden()
    finally:
        await page.close()
