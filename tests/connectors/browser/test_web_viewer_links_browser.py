"""A cited file's relative links, as a reader meets them on the reading page in headless Chromium.

The page loads nothing that fails (no 404 for a relative image or link); a link to a file the
reader may open goes there and lands on its ``#fragment``; a link to a file they may not open
(or that does not exist, or lies outside the knowledge base) is plain text that goes nowhere;
the page and the document each say their language.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Response

from tests.connectors.web.conftest import start_live_server
from tests.connectors.web.viewer_kb import build_linked_kb, viewer_app

# whether the element is inside the viewport
IN_VIEW = """(selector) => {
  const el = document.querySelector(selector);
  if (el === null) return false;
  const box = el.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


async def test_a_reader_follows_a_relative_link_and_meets_no_dead_end(
    browser: Browser, tmp_path: Path
) -> None:
    linked = build_linked_kb(tmp_path)
    live = await start_live_server(viewer_app(linked))
    context = await browser.new_context(viewport={"width": 360, "height": 480})
    failed: list[str] = []

    def record(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    try:
        page = await context.new_page()
        page.on("response", record)
        guide_url = f"{live.url}/files/{linked.token('docs/guide.md')}"
        await page.goto(guide_url)
        assert await page.evaluate("document.documentElement.lang") == "en"
        # the image shows as its words, marked as an image, and no broken-image icon
        assert await page.locator("img").count() == 0
        alts = page.locator(".cc-img-alt")
        assert await alts.all_inner_texts() == ["the diagram", "far away"]
        marks = await alts.evaluate_all(
            "els => els.map(e => getComputedStyle(e, '::before').content"
            " + getComputedStyle(e, '::after').content)"
        )
        assert marks == ['"[image: ""]"', '"[image: ""]"']
        # a private, a missing and an escaping link are text: clicking them goes nowhere
        for words in ("the private notes", "the gone page", "up and out", "encoded"):
            link = page.get_by_text(words, exact=True)
            assert await link.get_attribute("href") is None, words
            await link.click()
            assert page.url == guide_url, words
        # the link to the HTML policy opens it on its reading page, at its #retention heading
        await page.get_by_text("the policy", exact=True).click()
        await page.wait_for_url("**/files/*#retention")
        await page.wait_for_function(IN_VIEW, arg="#retention", timeout=10_000)
        assert await page.locator("h2#retention").inner_text() == "Aufbewahrung"
        assert await page.evaluate("document.documentElement.lang") == "en"
        assert await page.locator("main").get_attribute("lang") == "de"
        # and its own relative link leads back to the guide
        policy_url = page.url
        await page.get_by_text("the guide", exact=True).click()
        await page.wait_for_url(lambda url: url != policy_url)
        assert "Read the setup and the policy." in await page.inner_text("main")
        assert failed == []
    finally:
        await context.close()
        await live.stop()
