"""The widget on a site missing from web.cors_origins, in headless Chromium: it says so as soon
as it opens (its /api/config is refused), not only after a question fails; a failed question,
and a conversation the site kept from when it was allowed, give the same precise reason."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.chromium import artifact
from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.browser.widget_host import ask_in_widget, host_site, open_widget
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage, start_live_server


async def test_the_widget_on_a_site_not_allowed_says_so_when_it_opens(
    browser: Browser, tmp_path: Path
) -> None:
    listed = await start_live_server(host_site())
    unlisted = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(
        tmp_path, answerer, cors_origins=[listed.url], suggested_prompts=["How do I install it?"]
    )
    context = await browser.new_context(viewport={"width": 1000, "height": 760})
    try:
        page = await context.new_page()
        await open_widget(page, unlisted, running.url)
        status = page.locator("#citecast-panel .cc-status")
        await expect(status).to_have_text(
            f"Cannot reach the citecast server at {running.url}: it may be down, or it does not "
            f"allow this site (its web.cors_origins must list {unlisted.url}).",
            timeout=15_000,
        )
        await expect(status).to_have_class("cc-status cc-error")
        await page.screenshot(path=str(artifact("widget-site-not-allowed.png")))
        # the site its owner did list opens as before: no message, its suggested questions
        allowed = await context.new_page()
        await open_widget(allowed, listed, running.url)
        prompts = allowed.locator("#citecast-panel .cc-prompts button")
        await expect(prompts).to_have_text(["How do I install it?"])
        await expect(allowed.locator("#citecast-panel .cc-status")).to_have_text("")
        assert answerer.calls == []
    finally:
        await context.close()
        await running.stop()
        await unlisted.stop()
        await listed.stop()


@dataclass(frozen=True)
class NotAllowed:
    """The widget opened on a site the server does not list, and what the config check says."""

    page: Page
    answerer: CannedAnswerer
    precise: str


@asynccontextmanager
async def site_not_allowed(
    browser: Browser, tmp_path: Path, *, saved_conversation: bool = False
) -> AsyncIterator[NotAllowed]:
    """The widget open on a site missing from web.cors_origins; ``saved_conversation``: the
    site kept a conversation from when it was allowed (the widget's key names its server)."""
    unlisted = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, cors_origins=["https://other.example"])
    context = await browser.new_context(viewport={"width": 1000, "height": 760})
    if saved_conversation:
        key = json.dumps(f"citecast.widget.conversation:{running.url}")
        await context.add_init_script(f"window.localStorage.setItem({key}, 'c0ffee0123456789');")
    try:
        page = await context.new_page()
        await open_widget(page, unlisted, running.url)
        precise = (
            f"Cannot reach the citecast server at {running.url}: it may be down, or it does not "
            f"allow this site (its web.cors_origins must list {unlisted.url})."
        )
        yield NotAllowed(page, answerer, precise)
    finally:
        await context.close()
        await running.stop()
        await unlisted.stop()


async def test_a_question_on_a_site_not_allowed_keeps_the_precise_reason(
    browser: Browser, tmp_path: Path
) -> None:
    # the config check has said which server and which site: a failed question repeats that,
    # not the vaguer "Check that it is running and that this site may use it"
    async with site_not_allowed(browser, tmp_path) as widget:
        panel = widget.page.locator("#citecast-panel")
        await expect(panel.locator(".cc-status")).to_have_text(widget.precise, timeout=15_000)
        await ask_in_widget(widget.page, "How do I install it?")
        await expect(panel.locator(".cc-failed .cc-error")).to_have_text(
            widget.precise, timeout=15_000
        )
        await expect(panel.locator(".cc-status")).to_have_text(
            "Not answered; your question is back in the box to ask again."
        )
        await expect(panel).not_to_contain_text("Check that it is running")
        await expect(panel.locator(".cc-input")).to_have_value("How do I install it?")
        assert widget.answerer.calls == []


async def test_a_saved_conversation_on_a_site_not_allowed_says_why_it_is_not_loaded(
    browser: Browser, tmp_path: Path
) -> None:
    # it used to say only "Cannot reach the citecast server.", and the config check, finding
    # the status line taken, stayed silent
    async with site_not_allowed(browser, tmp_path, saved_conversation=True) as widget:
        panel = widget.page.locator("#citecast-panel")
        status = panel.locator(".cc-status")
        await expect(status).to_have_text(widget.precise, timeout=15_000)
        await expect(status).to_have_class("cc-status cc-error")
        # the question box is free again, and a question that fails repeats the reason
        await ask_in_widget(widget.page, "How do I install it?")
        await expect(panel.locator(".cc-failed .cc-error")).to_have_text(
            widget.precise, timeout=15_000
        )
        await expect(panel).not_to_contain_text("Check that it is running")
        assert widget.answerer.calls == []
