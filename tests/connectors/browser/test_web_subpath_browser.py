"""citecast behind a reverse proxy that serves it under a sub-path, in headless Chromium: the
chat page at ``/help/`` is styled and answers, the shared answer page and the not-found pages
are styled, and the widget embedded from ``/help/widget.js`` talks to ``/help/api/…``. The
proxy says its prefix (``X-Forwarded-Prefix``), so an answer's "Copy link" is under ``/help/``."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from bot.connectors.app import build_app
from bot.connectors.web_proxy import behind_proxies
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
from tests.connectors.web.test_web_forwarded_prefix import ForwardingProxy
from tests.connectors.web.test_web_subpath_assets import PREFIX

ANSWERED = ".cc-answer[aria-busy=false]"
SHADOW = "document.querySelector('#citecast-widget').shadowRoot"


async def styled(page: Page) -> list[str]:
    """Two styles only chat.css gives: the body's margin and the width of the page's column."""
    found: list[str] = await page.evaluate(
        """() => [getComputedStyle(document.body).marginTop,
                  getComputedStyle(document.querySelector('main.cc-root')).maxWidth]"""
    )
    return found


def host_site(citecast: list[str]) -> Starlette:
    """Another site embedding the widget from citecast's proxied address (no data-api)."""

    async def page(request: Request) -> Response:
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme</title></head><body><h1>Acme</h1>"
            f'<script src="{citecast[0]}{PREFIX}/widget.js" data-citecast async></script>'
            "</body></html>"
        )

    return Starlette(routes=[Route("/", page)])


async def test_every_page_works_under_a_sub_path(browser: Browser, tmp_path: Path) -> None:
    where: list[str] = []
    host = await start_live_server(host_site(where))
    settings = browser_settings(tmp_path, cors_origins=[host.url])
    text = "Claim one is true.[^1]\n\nClaim two is true.[^2]\n"
    answerer = CannedAnswerer(cited_answer(passage(1), passage(2), text=text))
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    # the proxy connects from 127.0.0.1, which citecast trusts by default (FORWARDED_ALLOW_IPS)
    app = behind_proxies(build_app(services, connectors=[], shutdown_grace=1))
    proxy: LiveServer = await start_live_server(ForwardingProxy(app))
    where.append(proxy.url)
    base = proxy.url + PREFIX
    context = await browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = await context.new_page()
        await page.goto(base + "/")
        assert await styled(page) == ["0px", "800px"]
        # the page reads /help/api/config (the deployment's names) and asks /help/api/…
        await page.get_by_label("Your question").fill("Is it true?")
        await page.get_by_label("Your question").press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await expect(page.locator(".cc-answer .cc-body p").first).to_contain_text("Claim one")

        turn = services.store.turn(1)
        assert turn is not None and turn.status == "done"
        await page.get_by_role("button", name="Copy link to this answer").click()
        await expect(page.locator(".cc-status")).to_have_text(
            "Link to this answer copied to the clipboard."
        )
        copied = await page.evaluate("navigator.clipboard.readText()")
        assert copied.startswith(f"{base}/turns/"), copied
        shared = await context.new_page()
        await shared.goto(copied)
        await expect(shared.locator(".cc-body p").first).to_contain_text("Claim one is true.")
        assert await styled(shared) == ["0px", "800px"]
        for missing in ("/turns/1-forged", "/files/forged.token"):
            await shared.goto(base + missing)
            await expect(shared.locator(".cc-body p")).to_contain_text(
                "cannot be shown" if "turns" in missing else "expired"
            )
            assert await styled(shared) == ["0px", "800px"], missing

        embedding = await context.new_page()
        await embedding.goto(host.url + "/")
        await embedding.get_by_role("button", name="Ask citecast").click()
        question = embedding.get_by_label("Your question")
        await question.fill("Is it true?")
        await question.press("Enter")
        await expect(embedding.locator(f"#citecast-panel {ANSWERED}")).to_have_count(
            1, timeout=20_000
        )
        # the widget's shadow root has chat.css: its launcher is fixed in the corner
        launcher = await embedding.evaluate(
            f"getComputedStyle({SHADOW}.querySelector('.cc-launcher')).position"
        )
        assert launcher == "fixed"
    finally:
        await context.close()
        await proxy.stop()
        services.store.close()
        await host.stop()
