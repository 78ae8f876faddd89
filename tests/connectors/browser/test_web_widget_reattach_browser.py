"""A single-page app that removes the widget's element and adds widget.js again gets the widget
back, in headless Chromium: the same one, closed as after a reload, with its conversation; the
script added again warns of nothing on a page that no longer has the old tag."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, ConsoleMessage, expect

from tests.connectors.browser.host_page import widget_host_page
from tests.connectors.browser.widget_host import ask_in_widget

ANSWERED = "#citecast-panel .cc-answer[aria-busy=false]"

# what an app's router does on a new view: the widget's element goes and the tag is added again;
# with newView the page's content and the first tag go too (the new view's markup comes with the
# tag), else the first tag stays in the page's shell; resolves once the new tag has run
ADD_AGAIN = """async (newView) => {
  const old = document.querySelector('script[data-citecast]');
  const src = old.src;
  document.getElementById('citecast-widget').remove();
  if (newView) {
    old.remove();
    document.body.innerHTML = '<h1>Another view</h1>';
  }
  const tag = document.createElement('script');
  tag.src = src;
  tag.setAttribute('data-citecast', '');
  await new Promise((done, failed) => {
    tag.onload = done;
    tag.onerror = failed;
    document.body.appendChild(tag);
  });
  return document.querySelectorAll('citecast-widget').length;
}"""


async def test_the_widget_comes_back_with_its_conversation_when_an_app_adds_it_again(
    browser: Browser, tmp_path: Path
) -> None:
    async with widget_host_page(browser, tmp_path) as (site, page):
        warnings: list[str] = []

        def keep(message: ConsoleMessage) -> None:
            # the widget's own (a browser's 404 for the host's favicon is not one)
            if message.text.startswith("citecast:"):
                warnings.append(message.text)

        page.on("console", keep)
        await page.goto(site.url())
        launcher = page.get_by_role("button", name="Ask citecast")
        await launcher.click()
        await ask_in_widget(page, "How do I install it?")
        await expect(page.locator(ANSWERED)).to_have_count(1)
        answer = await page.locator(ANSWERED).inner_text()

        assert await page.evaluate(ADD_AGAIN, True) == 1
        await expect(launcher).to_be_visible()
        await expect(launcher).to_have_attribute("aria-expanded", "false")
        await expect(page.locator("#citecast-panel")).to_be_hidden()
        await launcher.click()
        await expect(page.locator("#citecast-panel .cc-input")).to_be_focused()
        await expect(page.locator(ANSWERED)).to_have_text(answer, use_inner_text=True)
        assert warnings == []


async def test_a_second_tag_after_the_element_went_brings_it_back_and_warns_of_the_tag(
    browser: Browser, tmp_path: Path
) -> None:
    async with widget_host_page(browser, tmp_path) as (site, page):
        await page.add_init_script(
            "window.ccWarnings = []; const w = console.warn.bind(console);"
            " console.warn = (...a) => { window.ccWarnings.push(String(a[0])); w(...a); };"
        )
        await page.goto(site.url())
        launcher = page.get_by_role("button", name="Ask citecast")
        await expect(launcher).to_be_visible()
        assert await page.evaluate(ADD_AGAIN, False) == 1
        await expect(launcher).to_be_visible()
        await launcher.click()
        await expect(page.locator("#citecast-panel .cc-input")).to_be_focused()
        assert await page.evaluate("window.ccWarnings") == [
            "citecast: widget.js is embedded more than once; the first <script "
            "data-citecast> tag on the page is used and this one is ignored:"
        ]
