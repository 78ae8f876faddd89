"""The widget with a saved conversation on a site since removed from web.cors_origins, in
headless Chromium: the conversation cannot be loaded, and the chat says why as precisely as the
config check does (it used to say only "Cannot reach the citecast server.", and the config
check, finding the status line taken, stayed silent)."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.async_api import Browser, expect

from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.browser.widget_host import ask_in_widget, host_site, open_widget
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage, start_live_server


async def test_a_saved_conversation_on_a_site_not_allowed_says_why_it_is_not_loaded(
    browser: Browser, tmp_path: Path
) -> None:
    unlisted = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, cors_origins=["https://other.example"])
    context = await browser.new_context(viewport={"width": 1000, "height": 760})
    # the site kept a conversation from when it was allowed (the widget's key: its server)
    key = json.dumps(f"citecast.widget.conversation:{running.url}")
    await context.add_init_script(f"window.localStorage.setItem({key}, 'c0ffee0123456789');")
    try:
        page = await context.new_page()
        await open_widget(page, unlisted, running.url)
        precise = (
            f"Cannot reach the citecast server at {running.url}: it may be down, or it does not "
            f"allow this site (its web.cors_origins must list {unlisted.url})."
        )
        panel = page.locator("#citecast-panel")
        status = panel.locator(".cc-status")
        await expect(status).to_have_text(precise, timeout=15_000)
        await expect(status).to_have_class("cc-status cc-error")
        # the question box is free again, and a question that fails repeats the reason
        await ask_in_widget(page, "How do I install it?")
        await expect(panel.locator(".cc-failed .cc-error")).to_have_text(precise, timeout=15_000)
        await expect(panel).not_to_contain_text("Check that it is running")
        assert answerer.calls == []
    finally:
        await context.close()
        await running.stop()
        await unlisted.stop()
