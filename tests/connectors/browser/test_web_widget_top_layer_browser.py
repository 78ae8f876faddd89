"""The widget stays above a host page's own layers, in headless Chromium: a cookie banner and a
sticky header at the largest z-index there is (2147483647) cover neither the button nor the
panel's close button, so a mouse or touch user can always open and close the chat."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.connectors.browser.host_page import widget_host_page

# the page's header over the top 130 px (where the panel's close button is), its banner over
# the bottom 120 px (where the button is), both at the largest z-index
LAYERS = (
    "body::before {content: 'Acme'; position: fixed; top: 0; left: 0; right: 0; height: 130px;"
    " z-index: 2147483647; background: #fff}"
    " h1 {position: fixed; bottom: 0; left: 0; right: 0; height: 120px; margin: 0;"
    " z-index: 2147483647; background: #ffd}"
)

# what is drawn at the middle of a part of the widget: the widget's element (the page sees
# its shadow root's content as that), or the page's own
ON_TOP = """(selector) => {
  const part = document.querySelector('#citecast-widget').shadowRoot.querySelector(selector);
  const r = part.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  return {hit: document.elementFromPoint(x, y).id, x: x, y: y};
}"""


async def tap_where_drawn(page: Page, selector: str) -> None:
    """Click the middle of the widget's part ``selector`` as a person would: where it is drawn,
    on whatever is there."""
    spot = await page.evaluate(ON_TOP, selector)
    assert spot["hit"] == "citecast-widget", f"the page's own layer covers {selector}"
    await page.mouse.click(spot["x"], spot["y"])


async def test_the_button_and_close_button_are_above_a_page_at_the_largest_z_index(
    browser: Browser, tmp_path: Path
) -> None:
    async with widget_host_page(browser, tmp_path) as (site, page):
        await page.goto(site.url(style=LAYERS))
        launcher = page.get_by_role("button", name="Ask citecast")
        await expect(launcher).to_be_visible()
        await tap_where_drawn(page, ".cc-launcher")
        panel = page.locator("#citecast-panel")
        await expect(panel).to_be_visible()
        await expect(page.locator("#citecast-panel .cc-input")).to_be_focused()
        await tap_where_drawn(page, ".cc-close")
        await expect(panel).to_be_hidden()
        await expect(launcher).to_have_attribute("aria-expanded", "false")
