"""The widget on pages whose own styles reach its host element (#citecast-widget), in headless
Chromium: the button and panel stay where they belong, on top, drawn in full."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, ViewportSize, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tests.connectors.browser.conftest import RunningCitecast, serve_answerer
from tests.connectors.web.conftest import (
    CannedAnswerer,
    LiveServer,
    cited_answer,
    passage,
    start_live_server,
)

VIEWPORT: ViewportSize = {"width": 900, "height": 640}
# Rules a real site may well have for every div, which the widget's host element is too.
HOST_STYLES = {
    # a transform, filter or contain makes the host the box that "fixed" is relative to
    "/transform": "div {transform: translateZ(0) !important}",
    "/filter": "div {filter: saturate(1.1)}",
    "/contain": "div {contain: paint}",
    # skipped while off screen: the host is at the foot of the page
    "/lazy": "div {content-visibility: auto}",
    # a stacking context under the page's cookie banner, faded, with a box drawn around it
    "/stacked": "div {position: relative; z-index: 1; opacity: .4; border: 2px dashed green;"
    " padding: 20px; margin: 30px}",
}
BANNER = (
    "<div id='banner' style='position:fixed; right:0; bottom:0; width:340px; height:120px;"
    " z-index:100; background:#eee; transform:none; filter:none; contain:none;"
    " content-visibility:visible; opacity:1'>We use cookies.</div>"
)


def host_site(styles: dict[str, str]) -> Starlette:
    """A long page embedding the widget, one per style (its citecast URL in the query)."""

    async def page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme</title>"
            f"<style>{styles[request.url.path]}</style></head><body><h1>Acme</h1>"
            f"<p style='height:3000px'>A long page.</p>{BANNER}"
            f'<script src="{citecast}/widget.js" data-citecast async></script></body></html>'
        )

    return Starlette(routes=[Route(path, page) for path in styles])


@dataclass
class Embedded:
    host: LiveServer
    citecast: RunningCitecast


@pytest.fixture
async def embedded(tmp_path: Path) -> AsyncIterator[Embedded]:
    styles = {**HOST_STYLES, "/hidden": "#citecast-widget {display: none}"}
    host = await start_live_server(host_site(styles))
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, cors_origins=[host.url])
    yield Embedded(host, running)
    await running.stop()
    await host.stop()


async def launcher_state(page: Page) -> dict[str, object]:
    """Where the launcher is, what is drawn at its centre, and the host element's own box."""
    state: dict[str, object] = await page.evaluate(
        """() => {
          const host = document.querySelector('#citecast-widget');
          const r = host.shadowRoot.querySelector('.cc-launcher').getBoundingClientRect();
          const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          const box = host.getBoundingClientRect();
          return {right: innerWidth - r.right, bottom: innerHeight - r.bottom,
                  hit: hit ? hit.id : null, hostHeight: box.height,
                  opacity: getComputedStyle(host).opacity};
        }"""
    )
    return state


@pytest.mark.parametrize("path", sorted(HOST_STYLES))
async def test_page_styles_on_the_host_element_leave_the_widget_in_place(
    browser: Browser, embedded: Embedded, path: str
) -> None:
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    try:
        await page.goto(f"{embedded.host.url}{path}?citecast={embedded.citecast.url}")
        launcher = page.get_by_role("button", name="Ask citecast")
        await expect(launcher).to_be_visible()
        await expect(launcher).to_be_in_viewport(ratio=1)
        state = await launcher_state(page)
        # bottom right of the window, above the page's banner, no box of the page's around it
        assert state == {
            "right": 20,
            "bottom": 20,
            "hit": "citecast-widget",
            "hostHeight": 0,
            "opacity": "1",
        }, state
        await launcher.click()
        panel = page.locator("#citecast-panel")
        await expect(panel).to_be_in_viewport(ratio=1)
        await expect(page.locator("#citecast-panel .cc-input")).to_be_focused()
    finally:
        await context.close()


async def test_the_page_can_still_hide_the_widget(browser: Browser, embedded: Embedded) -> None:
    page = await browser.new_page()
    try:
        await page.goto(f"{embedded.host.url}/hidden?citecast={embedded.citecast.url}")
        await expect(page.locator("#citecast-widget")).to_be_attached()
        await page.wait_for_function(
            "() => !!document.querySelector('#citecast-widget').shadowRoot"
            ".querySelector('link').sheet"
        )
        await expect(page.get_by_role("button", name="Ask citecast")).to_be_hidden()
    finally:
        await page.close()
