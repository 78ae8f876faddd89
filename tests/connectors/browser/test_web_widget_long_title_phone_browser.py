"""The widget on a 375 x 667 phone whose deployment sets the longest title and a long subtitle,
in headless Chromium: its header then leaves too little room for the sticky question box, which
scrolls with the conversation (cc-short), and opening the panel focused the box but left it
partly below the panel's bottom edge: the Ask button, its second line and the hint hidden (found
in a QA pass). The whole box is in view when the panel opens and while a long question is typed.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.chromium import artifact
from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.browser.widget_host import host_site
from tests.connectors.web.conftest import (
    CannedAnswerer,
    cited_answer,
    passage,
    start_live_server,
)

# web.title may be 80 characters long, web.subtitle 200 (bot/config_channels.py)
LONG_TITLE = "Acme Support & Knowledge Centre for Extraordinarily Long Product Names Included"
LONG_SUBTITLE = (
    "Answers from the knowledge base of Acme, every claim with its source, reviewed weekly by "
    "the documentation team so that you can trust what you read here without any doubt at all"
)

# How far (px) the question box's bottom edge, and the Ask button's, lie below the panel's.
BELOW = """() => {
  const root = document.querySelector('#citecast-widget').shadowRoot;
  const panel = root.querySelector('.cc-panel').getBoundingClientRect().bottom;
  const below = (selector) => root.querySelector(selector).getBoundingClientRect().bottom - panel;
  return {form: below('.cc-form'), send: below('.cc-form button[type=submit]'),
          short: root.querySelector('.cc-panel').classList.contains('cc-short')};
}"""


async def fully_in_panel(page: Page) -> dict[str, float]:
    found: dict[str, float] = await page.evaluate(BELOW)
    assert found["short"], found  # the case of the finding: the box scrolls with the chat
    assert found["form"] <= 0.5, found
    assert found["send"] <= 0.5, found
    return found


async def test_the_question_box_is_whole_on_a_phone_with_a_long_title(
    browser: Browser, tmp_path: Path
) -> None:
    assert len(LONG_TITLE) <= 80 and len(LONG_SUBTITLE) <= 200
    host = await start_live_server(host_site())
    running = await serve_answerer(
        tmp_path,
        CannedAnswerer(cited_answer(passage(1))),
        title=LONG_TITLE,
        subtitle=LONG_SUBTITLE,
        cors_origins=[host.url],
    )
    context = await browser.new_context(viewport={"width": 375, "height": 667})
    try:
        page = await context.new_page()
        await page.goto(f"{host.url}/?citecast={running.url}")
        await page.get_by_role("button", name="Ask citecast").click()
        panel = page.locator("#citecast-panel")
        await expect(panel.locator(".cc-title")).to_have_text(LONG_TITLE)
        await expect(panel.locator(".cc-subtitle")).to_have_text(LONG_SUBTITLE)
        box = panel.locator(".cc-input")
        await expect(box).to_be_focused()
        await page.wait_for_timeout(300)  # the config's title has been laid out
        await fully_in_panel(page)
        # typing a question two lines long, the box grows: still whole
        await page.keyboard.type(
            "How do I install citecast on Linux, and where does it keep its index?"
        )
        await page.wait_for_timeout(300)
        await page.screenshot(path=str(artifact("widget-long-title-375x667-typed.png")))
        await fully_in_panel(page)
    finally:
        await context.close()
        await running.stop()
        await host.stop()
