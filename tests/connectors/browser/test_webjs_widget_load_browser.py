"""The widget whose scripts could not load, in headless Chromium: what a screen reader is told.

Focus stays on the launcher button (there is no question box to move it to), so the panel's
"Cannot reach" message must be an alert to be heard at all; the chat that loads on the next try
must not be one."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.connectors.browser.conftest import RunningCitecast
from tests.connectors.browser.widget_host import sites
from tests.connectors.web.conftest import LiveServer

__all__ = ["sites"]


async def test_a_widget_that_could_not_load_says_so_in_an_alert(
    browser: Browser, sites: tuple[LiveServer, RunningCitecast]
) -> None:
    host, running = sites
    page = await browser.new_page()
    try:
        await page.route("**/static/chat.js*", lambda route: route.abort())
        await page.goto(f"{host.url}/?citecast={running.url}")
        launcher = page.get_by_role("button", name="Ask citecast")
        await launcher.click()
        panel = page.locator("#citecast-panel")
        alert = panel.get_by_role("alert")
        await expect(alert).to_have_text(f"Cannot reach the citecast server at {running.url}.")
        await expect(launcher).to_be_focused()
        await page.unroute("**/static/chat.js*")
        await launcher.click()  # tries again, loading what failed
        await expect(panel.locator(".cc-input")).to_be_focused()
        assert await panel.get_by_role("alert").count() == 0  # the chat is no alert
    finally:
        await page.close()
