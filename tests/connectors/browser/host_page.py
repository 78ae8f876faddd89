"""A host site whose one page embeds the widget as the query describes it, for tests of what
a site's own markup, styles and Content-Security-Policy do to the widget.

``/page?citecast=URL`` embeds ``URL/widget.js``; ``style`` (the page's own CSS), ``lang``
(``lang=`` for none), ``dir``, ``csp`` (a ``Content-Security-Policy`` header) and ``attrs``
(more attributes of the tag) change the page. It is long (3000px), so a button placed at its
foot is out of view.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from html import escape
from pathlib import Path
from urllib.parse import urlencode

from playwright.async_api import Browser, Page
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


def embedding_page(
    citecast: str, *, style: str = "", lang: str = "en", direction: str = "", attrs: str = ""
) -> str:
    """The host page's HTML, embedding ``citecast``'s widget (``lang=""``: no lang at all)."""
    html_attrs = (f" lang='{escape(lang)}'" if lang else "") + (
        f" dir='{escape(direction)}'" if direction else ""
    )
    return (
        f"<!doctype html><html{html_attrs}><head><title>Acme</title>"
        f"<style>{style}</style></head><body><h1>Acme</h1>"
        "<p style='height:3000px'>A long page.</p>"
        f'<script src="{escape(citecast)}/widget.js" data-citecast {attrs} async></script>'
        "</body></html>"
    )


def host_site() -> Starlette:
    """The site serving ``/page`` as its query says."""

    async def page(request: Request) -> Response:
        query = request.query_params
        body = embedding_page(
            query["citecast"],
            style=query.get("style", ""),
            lang=query.get("lang", "en"),
            direction=query.get("dir", ""),
            attrs=query.get("attrs", ""),
        )
        headers = {"Content-Security-Policy": query["csp"]} if "csp" in query else {}
        return HTMLResponse(body, headers=headers)

    return Starlette(routes=[Route("/page", page)])


@dataclass(frozen=True)
class Site:
    """The host site and the citecast that lets it embed the widget."""

    host: LiveServer
    citecast: RunningCitecast

    def url(self, **query: str) -> str:
        """The host page's URL with ``query`` (its citecast URL added)."""
        return f"{self.host.url}/page?" + urlencode({"citecast": self.citecast.url, **query})


@asynccontextmanager
async def host_and_citecast(tmp_path: Path) -> AsyncIterator[Site]:
    """A host site, and a citecast listing it in web.cors_origins whose answers cite one
    passage; both stop when the block ends."""
    host = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, cors_origins=[host.url])
    try:
        yield Site(host, running)
    finally:
        await running.stop()
        await host.stop()


@asynccontextmanager
async def widget_host_page(browser: Browser, tmp_path: Path) -> AsyncIterator[tuple[Site, Page]]:
    """:func:`host_and_citecast` and a fresh 900×760 browser page to open the host page in;
    all closed when the block ends."""
    async with host_and_citecast(tmp_path) as site:
        context = await browser.new_context(viewport={"width": 900, "height": 760})
        try:
            yield site, await context.new_page()
        finally:
            await context.close()
