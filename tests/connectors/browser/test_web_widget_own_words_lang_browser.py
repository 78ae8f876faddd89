"""The widget's own English words inside an answer are marked ``lang="en"`` on a page in another
language, in headless Chromium (WCAG 3.1.2): a citation's name ("Source 1: …"), its tooltip's
"Opens in a new tab." and the source list's Back button ("Back to citation 2 in the answer"),
while the answer itself keeps the page's language. Found in a QA pass on a ``lang="de"`` page:
they sat inside the answer's ``lang="de"``, read in a German voice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Browser, expect

from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.browser.host_page import Site, host_site
from tests.connectors.browser.widget_host import ANSWERED
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage, start_live_server

# The language each part is read in: that of its nearest element with a lang attribute.
LANGS = """() => {
  const root = document.querySelector('#citecast-widget').shadowRoot;
  const lang = (node) => node.closest('[lang]').getAttribute('lang');
  const links = root.querySelectorAll('.cc-answer .cc-body sup a');
  return {
    names: Array.from(links, lang),
    newTab: lang(root.querySelector('.cc-tip-new-tab')),
    back: lang(root.querySelector('.cc-back')),
    body: lang(root.querySelector('.cc-answer .cc-body')),
    quote: lang(root.querySelector('.cc-tip-quote')),
  };
}"""


async def test_the_widgets_own_words_in_an_answer_are_english(
    browser: Browser, tmp_path: Path
) -> None:
    # a linked source (its citation opens a new tab) and one without a link (its citation
    # focuses its source list entry, which gets the Back button)
    answer = cited_answer(passage(1), passage(2, url=None))
    host = await start_live_server(host_site())
    running = await serve_answerer(tmp_path, CannedAnswerer(answer), cors_origins=[host.url])
    context = await browser.new_context(viewport={"width": 1000, "height": 760})
    try:
        page = await context.new_page()
        await page.goto(Site(host, running).url(lang="de"))
        await page.get_by_role("button", name="Ask citecast").click()
        panel = page.locator("#citecast-panel")
        box = panel.locator(".cc-input")
        await expect(box).to_be_focused()
        await box.fill("Wie installiere ich es?")
        await box.press("Enter")
        await expect(panel.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        numbers = panel.locator(f"{ANSWERED} .cc-body sup a")
        await expect(numbers.nth(0)).to_have_accessible_name(
            "Source 1: Guide 1, p. 1, Setup > Linux"
        )
        await numbers.nth(1).focus()
        await page.keyboard.press("Enter")
        await expect(
            panel.get_by_role("button", name="Back to citation 2 in the answer")
        ).to_be_attached()
        langs: dict[str, Any] = await page.evaluate(LANGS)
        assert langs == {
            "names": ["en", "en"],
            "newTab": "en",
            "back": "en",
            "body": "de",
            "quote": "de",
        }, langs
    finally:
        await context.close()
        await running.stop()
        await host.stop()
