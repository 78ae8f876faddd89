"""The empty chat's hint on how to see a source fits the screen, in headless Chromium: "Hover or
focus a number" with a mouse, "Tap a number" on a touch screen (which has no hover)."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.chromium import artifact
from tests.connectors.browser.conftest import RunningCitecast

POINTER = (
    "Ask a question; the answer cites its sources. Hover or focus a number to see the passage."
)
TOUCH = "Ask a question; the answer cites its sources. Tap a number to open its source."


async def test_the_empty_chat_hint_fits_a_touch_screen_and_a_mouse(
    browser: Browser, citecast: RunningCitecast
) -> None:
    phone = await browser.new_context(
        viewport={"width": 390, "height": 740}, is_mobile=True, has_touch=True
    )
    desktop = await browser.new_context(viewport={"width": 1000, "height": 760})
    try:
        for context, hint in ((phone, TOUCH), (desktop, POINTER)):
            page = await context.new_page()
            await page.goto(citecast.url + "/")
            # inner_text is what is rendered (and read out): the other hint is display: none
            await expect(page.locator(".cc-empty")).to_have_text(hint, use_inner_text=True)
        await page.screenshot(path=str(artifact("chat-empty-hint.png")))
        touch_page = phone.pages[0]
        await touch_page.screenshot(path=str(artifact("chat-empty-hint-touch.png")))
    finally:
        await phone.close()
        await desktop.close()
