"""Every unreadable wait on the widget's tag is named in the console, in headless Chromium: a
``data-silence-timeout="abc"`` is warned of as a ``data-request-timeout="30"`` (read as
seconds) is, and the chat keeps its default wait and still answers."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from tests.connectors.browser.host_page import widget_host_page
from tests.connectors.browser.widget_host import ask_in_widget

# console.warn as the widget calls it, kept on the page (read once the chat is set up)
KEEP_WARNINGS = """
window.ccWarnings = [];
const warn = console.warn.bind(console);
console.warn = (...args) => { window.ccWarnings.push(args.join(' ')); warn(...args); };
"""

TAG = 'data-request-timeout="30" data-silence-timeout="abc"'


async def test_an_unreadable_timeout_is_warned_of_like_one_in_seconds(
    browser: Browser, tmp_path: Path
) -> None:
    async with widget_host_page(browser, tmp_path) as (site, page):
        await page.add_init_script(KEEP_WARNINGS)
        await page.goto(site.url(attrs=TAG))
        await page.get_by_role("button", name="Ask citecast").click()
        await ask_in_widget(page, "How do I install it?")
        status = page.locator("#citecast-panel .cc-status")
        await expect(status).to_have_text("Answered with 1 source.")
        warnings = await page.evaluate("window.ccWarnings")
        assert warnings == [
            'citecast: data-silence-timeout="abc" is not a number of milliseconds, so it '
            "is ignored and the default wait is used. Write a whole number, as "
            'data-silence-timeout="30000" for 30 s.',
            'citecast: data-request-timeout="30" is in milliseconds; so short a wait must '
            'mean seconds, so it is read as 30000 ms. Write data-request-timeout="30000".',
        ]
