"""A host site embedding the widget from another origin, and how the widget tests open it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect
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

ANSWERED = ".cc-answer[aria-busy=false]"


WIDGET_JS = Path(__file__).resolve().parents[3] / "bot/connectors/static/widget.js"


HOSTILE_STYLE = (
    # a page whose styles would reach the widget if it were not isolated
    "* {font-size:30px !important; line-height:3 !important; color:#c00 !important;"
    " font-family:serif !important; letter-spacing:3px !important}"
    " div {border:2px dashed green; padding:20px}"
    " :root {--cc-accent:#00ff00; --cc-bg:#000000}"
)
STYLES = {
    "/": "",
    "/rem": "html{font-size:62.5%} body{font-size:1.6rem; line-height:1.2}",
    "/hostile": HOSTILE_STYLE,
}


def host_site() -> Starlette:
    """Someone else's site that embeds the widget (its citecast URL comes in the query).

    ``/``, ``/rem`` and ``/hostile`` differ only in their own styles (``STYLES``); ``/tall`` is a
    long page. ``/cdn`` embeds the site's own copy of widget.js, pointed at citecast by
    ``data-api`` and with its own ``data-label``; ``/twice`` embeds that copy twice, the first
    tag's copy arriving late (``?delay=``).
    """

    def embedding(tag: str, style: str = "", body: str = "") -> Response:
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme support</title>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<style>body{{font-family:serif;background:#fafafa}} p{{color:#d00}} {style}</style>"
            f"</head><body><h1>Acme support</h1><p>Our own page, our own styles.</p>{body}"
            f"{tag}</body></html>"
        )

    def script(request: Request) -> str:
        citecast = request.query_params["citecast"]
        return f'<script src="{citecast}/widget.js" data-citecast async></script>'

    async def page(request: Request) -> Response:
        return embedding(script(request), STYLES[request.url.path])

    async def tall_page(request: Request) -> Response:
        return embedding(script(request), body="<p style='height:3000px'>Tall text.</p>")

    async def cdn_page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return embedding(
            f'<script src="/static/widget.js" data-citecast data-api="{citecast}" '
            'data-label="Ask Acme" async></script>'
        )

    async def twice_page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return embedding(
            f'<script src="/static/widget.js?delay=0.8" data-citecast data-api="{citecast}" '
            'data-label="Help A" async></script>'
            f'<script src="/static/widget.js" data-citecast data-api="{citecast}" '
            'data-label="Help B" async></script>'
        )

    async def widget(request: Request) -> Response:
        await asyncio.sleep(float(request.query_params.get("delay", "0")))
        return Response(WIDGET_JS.read_text("utf-8"), media_type="text/javascript")

    return Starlette(
        routes=[
            *(Route(path, page) for path in STYLES),
            Route("/tall", tall_page),
            Route("/cdn", cdn_page),
            Route("/twice", twice_page),
            Route("/static/widget.js", widget),
        ]
    )


@pytest.fixture
async def sites(tmp_path: Path) -> AsyncIterator[tuple[LiveServer, RunningCitecast]]:
    """The host site (:func:`host_site`) on one loopback origin and citecast, answering one
    cited passage, with that origin in ``web.cors_origins``."""
    host = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, cors_origins=[host.url])
    yield host, running
    await running.stop()
    await host.stop()


async def open_widget(page: Page, host: LiveServer, citecast_url: str, path: str = "/") -> None:
    await page.goto(f"{host.url}{path}?citecast={citecast_url}")
    launcher = page.get_by_role("button", name="Ask citecast")
    await expect(launcher).to_be_visible()
    await launcher.click()
    await expect(page.locator("#citecast-panel")).to_be_visible()


async def own_host_page(page: Page, citecast_url: str) -> str:
    """Route a host page embedding the widget at ``citecast_url + "/host"`` (so on citecast's
    own origin, which needs no ``web.cors_origins`` entry); its URL."""
    url = citecast_url + "/host"
    await page.route(
        url,
        lambda route: route.fulfill(
            content_type="text/html",
            body="<!doctype html><html lang='en'><title>Host</title>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<h1>Host</h1><script src='{citecast_url}/widget.js' data-citecast async></script>",
        ),
    )
    return url


async def ask_in_widget(page: Page, question: str) -> None:
    box = page.locator("#citecast-panel .cc-input")
    await expect(box).to_be_focused()
    await box.fill(question)
    await box.press("Enter")


@dataclass
class Embedded:
    """citecast, and a host site it lets embed the widget."""

    host: LiveServer
    citecast: RunningCitecast


async def widget_page(
    browser: Browser, embedded: Embedded, path: str = "/", width: int = 1000, height: int = 760
) -> Page:
    """A new page of the host site at ``path`` with the widget open."""
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = await context.new_page()
    await open_widget(page, embedded.host, embedded.citecast.url, path)
    return page


def long_text(steps: int) -> str:
    """An answer of ``steps`` cited paragraphs, long enough to make the widget's panel scroll."""
    return "\n\n".join(
        f"Step {i}: the installer checks the settings file, the index and the store before it "
        f"goes on, and says which one is missing.[^1]"
        for i in range(1, steps + 1)
    )


@asynccontextmanager
async def long_answers_widget(
    browser: Browser, tmp_path: Path, width: int, height: int, steps: int
) -> AsyncIterator[Page]:
    """A host site's page, ``width`` x ``height``, with the widget open on a citecast whose
    every answer is ``long_text(steps)``; everything stops when the block ends."""
    host = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1), text=long_text(steps)), chunk=400)
    running = await serve_answerer(tmp_path, answerer, cors_origins=[host.url])
    context = await browser.new_context(viewport={"width": width, "height": height})
    try:
        page = await context.new_page()
        await open_widget(page, host, running.url)
        yield page
    finally:
        await context.close()
        await running.stop()
        await host.stop()
