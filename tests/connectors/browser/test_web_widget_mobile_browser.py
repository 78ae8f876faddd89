"""The widget on a phone-sized host page, in headless Chromium: the panel fits the screen and
focusing the question box gives iOS Safari no reason to zoom the host page."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage, start_live_server

# iOS Safari zooms the page into any text field whose font is smaller than this on focus
IOS_NO_ZOOM_PX = 16.0


async def test_the_widget_on_a_phone_fits_and_its_question_box_does_not_zoom(
    browser: Browser, tmp_path: Path
) -> None:
    async def page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme</title>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'></head>"
            f"<body><h1>Acme</h1><script src='{citecast}/widget.js' data-citecast async>"
            "</script></body></html>"
        )

    host = await start_live_server(Starlette(routes=[Route("/", page)]))
    running = await serve_answerer(
        tmp_path, CannedAnswerer(cited_answer(passage(1))), cors_origins=[host.url]
    )
    context = await browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    )
    try:
        phone = await context.new_page()
        await phone.goto(f"{host.url}/?citecast={running.url}")
        await phone.get_by_role("button", name="Ask citecast").click()
        box = phone.get_by_label("Your question")
        await expect(box).to_be_focused()
        measured = await box.evaluate(
            """input => {
              const panel = input.getRootNode().querySelector('.cc-panel');
              const r = panel.getBoundingClientRect();
              return {font: parseFloat(getComputedStyle(input).fontSize),
                      fits: r.left >= 0 && r.top >= 0 && r.right <= innerWidth
                            && r.bottom <= innerHeight,
                      sideways: document.documentElement.scrollWidth > innerWidth};
            }"""
        )
        assert measured["font"] >= IOS_NO_ZOOM_PX, measured
        assert measured["fits"] and not measured["sideways"], measured
    finally:
        await context.close()
        await running.stop()
        await host.stop()
