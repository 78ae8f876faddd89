"""An upgrade seen by a browser that kept an older release's ``chat.js``, in headless Chromium.

Older releases sent ``/static/*`` with no ``Cache-Control``, so a browser reuses such a file
unasked for a tenth of its age (its ``Last-Modified``). One loopback origin here serves such an
older release first, then today's citecast: the chat page and the widget must run today's
scripts, never the kept one."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from bot.connectors.app import build_app
from bot.runtime import Services
from bot.store import Store
from tests.connectors.browser.conftest import browser_settings
from tests.connectors.web.conftest import (
    CannedAnswerer,
    LiveServer,
    cited_answer,
    passage,
    start_live_server,
)

# an older chat.js: it named itself CitecastChat, which today's widget does not look for
OLD_CHAT_JS = "window.CitecastChat = { mount: function () {} }; window.oldChatRan = true;\n"
THIRTY_DAYS = 30 * 24 * 3600


def older_release() -> Starlette:
    """What an older citecast served: a chat page and a chat.js with a date and no
    ``Cache-Control`` (heuristically fresh for three days)."""

    async def page(request: Request) -> Response:
        return HTMLResponse('<!doctype html><script src="static/chat.js"></script>')

    async def chat_js(request: Request) -> Response:
        modified = formatdate(time.time() - THIRTY_DAYS, usegmt=True)
        return Response(
            OLD_CHAT_JS, media_type="text/javascript", headers={"Last-Modified": modified}
        )

    return Starlette(routes=[Route("/", page), Route("/static/chat.js", chat_js)])


class Upgraded:
    """One origin: the older release until :meth:`upgrade`, then today's app (whose lifespan
    runs throughout)."""

    def __init__(self, today: Any) -> None:
        self.today = today
        self.serving: Any = older_release()

    def upgrade(self) -> None:
        self.serving = self.today

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        app = self.today if scope["type"] == "lifespan" else self.serving
        await app(scope, receive, send)


def host_site() -> Starlette:
    """A site embedding the widget; ``/before`` is it under the older release, whose widget
    loaded ``static/chat.js`` unversioned (kept in this site's share of the browser cache)."""

    async def page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme</title></head><body><h1>Acme</h1>"
            f'<script src="{citecast}/widget.js" data-citecast async></script></body></html>'
        )

    async def before(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return HTMLResponse(f'<!doctype html><script src="{citecast}/static/chat.js"></script>')

    return Starlette(routes=[Route("/", page), Route("/before", before)])


@dataclass
class Sites:
    host: LiveServer
    citecast: LiveServer
    origin: Upgraded
    context: BrowserContext


@pytest.fixture
async def sites(tmp_path: Path, browser: Browser) -> AsyncIterator[Sites]:
    host = await start_live_server(host_site())
    settings = browser_settings(tmp_path, cors_origins=[host.url])
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    origin = Upgraded(build_app(services, connectors=[], shutdown_grace=1))
    citecast = await start_live_server(origin)
    context = await browser.new_context()  # one HTTP cache across the visits
    yield Sites(host, citecast, origin, context)
    await context.close()
    await citecast.stop()
    services.store.close()
    await host.stop()


async def test_the_chat_page_runs_todays_scripts_after_an_upgrade(sites: Sites) -> None:
    page = await sites.context.new_page()
    await page.goto(f"{sites.citecast.url}/")
    assert await page.evaluate("window.oldChatRan") is True  # the older release, kept
    sites.origin.upgrade()
    await page.goto(f"{sites.citecast.url}/")
    await expect(page.get_by_label("Your question")).to_be_visible()
    assert await page.evaluate("window.oldChatRan === undefined")


async def test_the_widget_opens_its_chat_after_an_upgrade(sites: Sites) -> None:
    page = await sites.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(f"{sites.host.url}/before?citecast={sites.citecast.url}")
    assert await page.evaluate("window.oldChatRan") is True
    sites.origin.upgrade()
    await page.goto(f"{sites.host.url}/?citecast={sites.citecast.url}")
    await page.get_by_role("button", name="Ask citecast").click()
    panel = page.locator("#citecast-panel")
    await expect(panel).to_be_visible()
    await expect(panel.locator(".cc-input")).to_be_focused()
    assert await page.evaluate("window.oldChatRan === undefined")
    assert errors == []


async def test_a_chat_js_of_another_release_gets_a_message_not_a_hidden_panel(
    sites: Sites,
) -> None:
    # a proxy between them that still hands out another release's chat.js, whatever its URL
    sites.origin.upgrade()
    page = await sites.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.route(
        re.compile(r".*/static/chat\.js(\?.*)?$"),
        lambda route: route.fulfill(body=OLD_CHAT_JS, content_type="text/javascript"),
    )
    await page.goto(f"{sites.host.url}/?citecast={sites.citecast.url}")
    await page.get_by_role("button", name="Ask citecast").click()
    alert = page.locator("#citecast-panel").get_by_role("alert")
    await expect(alert).to_have_text("The chat could not start. Reload the page to try again.")
    assert errors == []
