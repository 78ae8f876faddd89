"""Two citecast deployments on one origin (``/help/`` and ``/kb/`` behind one proxy) each keep
their own conversation across a reload, in headless Chromium.

The chat page kept its conversation under one localStorage key for the whole origin, so
``/kb/`` sent ``/help/``'s conversation to its own server, got a 404 and forgot it: a reload of
``/help/`` then found nothing. Each page now keys by its path; a conversation an older version
kept under the shared key is moved to the deployment whose server knows it and left alone by
the other.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
from playwright.async_api import Browser, BrowserContext, Page, Route, expect

from tests.connectors.browser.conftest import RunningCitecast, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
OLD_KEY = "citecast.conversation"


@asynccontextmanager
async def one_origin(
    browser: Browser, tmp_path: Path
) -> AsyncIterator[tuple[BrowserContext, str, RunningCitecast]]:
    """A browser context in which one origin serves deployment A under ``/help/`` and B under
    ``/kb/`` (the proxy is Playwright's routing, every server on 127.0.0.1); yields the
    context, the origin and A."""
    help_desk = await serve_answerer(
        tmp_path / "help", CannedAnswerer(cited_answer(passage(1), text="Help says so.[^1]\n"))
    )
    kb = await serve_answerer(
        tmp_path / "kb", CannedAnswerer(cited_answer(passage(2), text="KB says so.[^1]\n"))
    )
    origin = help_desk.url
    context = await browser.new_context()

    async def proxy(route: Route) -> None:
        path = route.request.url[len(origin) :]
        for prefix, server in (("/help/", help_desk), ("/kb/", kb)):
            if path.startswith(prefix):
                upstream = await route.fetch(url=server.url + path[len(prefix) - 1 :])
                await route.fulfill(response=upstream)
                return
        await route.fulfill(status=200, content_type="text/html", body="<!doctype html><p>")

    await context.route(origin + "/**", proxy)
    try:
        yield context, origin, help_desk
    finally:
        await context.close()
        await help_desk.stop()
        await kb.stop()


async def ask_on(page: Page, url: str, question: str) -> None:
    await page.goto(url)
    await page.get_by_label("Your question").fill(question)
    await page.get_by_label("Your question").press("Enter")
    await expect(page.locator(ANSWERED)).to_have_count(1)


async def test_each_deployment_keeps_its_own_conversation(browser: Browser, tmp_path: Path) -> None:
    async with one_origin(browser, tmp_path) as (context, origin, _):
        page = await context.new_page()
        await ask_on(page, origin + "/help/", "Asked of help")
        await ask_on(page, origin + "/kb/", "Asked of the knowledge base")
        for path, question in (
            ("/help/", "Asked of help"),
            ("/kb/", "Asked of the knowledge base"),
        ):
            await page.goto(origin + path)
            await expect(page.locator(ANSWERED)).to_have_count(1)
            await expect(page.locator(".cc-question")).to_contain_text(question)


async def test_the_old_shared_key_moves_to_the_deployment_that_knows_it(
    browser: Browser, tmp_path: Path
) -> None:
    async with one_origin(browser, tmp_path) as (context, origin, help_desk):
        async with httpx.AsyncClient(base_url=help_desk.url) as client:
            asked = await client.post("/api/ask", json={"question": "Asked before the upgrade"})
        conversation = asked.json()["conversation_id"]
        page = await context.new_page()
        await page.goto(origin + "/")
        await page.evaluate("([k, v]) => localStorage.setItem(k, v)", [OLD_KEY, conversation])
        # /kb/'s server does not know it: it is not /kb/'s to move, nor to throw away
        await page.goto(origin + "/kb/")
        await expect(page.get_by_role("status")).to_have_text("")
        await expect(page.locator(".cc-turn")).to_have_count(0)
        assert await page.evaluate(f"localStorage.getItem('{OLD_KEY}')") == conversation
        await page.goto(origin + "/help/")
        await expect(page.locator(".cc-question")).to_contain_text("Asked before the upgrade")
        stored = await page.evaluate(
            f"[localStorage.getItem('{OLD_KEY}'), localStorage.getItem('{OLD_KEY}:/help/')]"
        )
        assert stored == [None, conversation]
