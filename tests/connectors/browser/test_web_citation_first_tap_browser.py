"""On a phone, the first tap on a citation number opens its source, in headless Chromium.

A tap shows the number's tooltip (the mouse events a tap makes) before its click. Shown, the
tooltip stuck out past the page's right edge until citations.js moved it into the answer card;
on a phone that widened the page for that moment, its layout viewport grew taller with it, a
page scrolled to its end scrolled back, and the click landed on the text beside the number.
"""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.connectors.browser.conftest import RunningCitecast

# records where the click lands, and keeps it from opening a tab (the test needs only where)
RECORD_CLICKS = """() => {
  window.ccClicks = [];
  document.addEventListener('click', (e) => {
    e.preventDefault();
    window.ccClicks.push(e.target.closest('a') ? 'link' : e.target.tagName);
  }, true);
}"""


async def test_the_first_tap_on_a_citation_lands_on_it_at_360_px(
    browser: Browser, citecast: RunningCitecast
) -> None:
    context = await browser.new_context(
        viewport={"width": 360, "height": 640},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    try:
        page = await context.new_page()
        await page.goto(citecast.url + "/")
        await page.locator(".cc-input").fill("How long do download links last?")
        await page.get_by_role("button", name="Ask", exact=True).tap()
        await expect(page.locator(".cc-answer[aria-busy=false]")).to_have_count(1)
        cite = page.locator(".cc-answer .cc-cite a").first
        await expect(cite).to_be_visible()
        # the answer leaves the page scrolled to its end, where a taller viewport scrolls back
        scrolled = await page.evaluate("scrollY")
        assert scrolled > 0
        await page.evaluate(RECORD_CLICKS)
        box = await cite.bounding_box()
        assert box is not None
        await page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await page.wait_for_function("window.ccClicks.length > 0")
        assert await page.evaluate("window.ccClicks") == ["link"]
        assert await page.evaluate("[scrollY, document.scrollingElement.scrollWidth]") == [
            scrolled,
            360,
        ]
    finally:
        await context.close()
