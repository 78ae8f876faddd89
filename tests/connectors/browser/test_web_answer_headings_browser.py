"""An answer's own headings rank below the chat's title and beside or below its source list's
heading, on the chat page and in the widget on a host page (WCAG 1.3.1, 2.4.6)."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.connectors.browser.conftest import ask, serve_answerer
from tests.connectors.browser.widget_host import ANSWERED, ask_in_widget, host_site, open_widget
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage, start_live_server

TEXT = "# Install\n\n## Steps\n\nInstall the package first.[^1]"


async def heading_level(page: Page, name: str) -> int:
    """The level of the one heading named ``name`` exactly (h1…h6)."""
    for level in range(1, 7):
        found = page.get_by_role("heading", name=name, exact=True, level=level)
        if await found.count():
            return level
    raise AssertionError(f"no heading {name!r}")


async def test_an_answers_own_headings_rank_below_the_chat_title(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1), text=TEXT)))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "How do I install it?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        # one h1 on the page (the chat's title), one h2 (the answer's source list)
        assert await page.get_by_role("heading", level=1).count() == 1
        assert await page.get_by_role("heading", level=2).count() == 1
        assert await heading_level(page, "Install") == 3
        assert await heading_level(page, "Steps") == 4
    finally:
        await page.close()
        await running.stop()


async def test_in_the_widget_an_answers_headings_rank_below_its_title(
    browser: Browser, tmp_path: Path
) -> None:
    host = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1), text=TEXT))
    running = await serve_answerer(tmp_path, answerer, cors_origins=[host.url])
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await open_widget(page, host, running.url)
        await ask_in_widget(page, "How do I install it?")
        await expect(page.locator(f"#citecast-panel {ANSWERED}")).to_have_count(1, timeout=20_000)
        # the host page's own h1 stays the only one; the widget's title is its one h2
        assert await page.get_by_role("heading", level=1).count() == 1
        assert await page.get_by_role("heading", level=2).count() == 1
        # "Install" sits beside the source list's heading (h3), "Steps" below it
        sources = page.locator("#citecast-panel").get_by_role("heading", name="Sources")
        assert await sources.evaluate("h => h.tagName") == "H3"
        assert await heading_level(page, "Install") == 3
        assert await heading_level(page, "Steps") == 4
    finally:
        await context.close()
        await running.stop()
        await host.stop()
