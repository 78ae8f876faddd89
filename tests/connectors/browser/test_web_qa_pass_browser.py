"""The chat page and the widget as a phone, keyboard or screen-reader user meets them, in headless
Chromium: the longest title a deployment may set on a 320 px wide screen, the widget's language
on a page in another language, citations a list of links can tell apart, and the way back from
a source list entry to the citation that led there."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, ViewportSize, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tests.chromium import artifact
from tests.connectors.browser.conftest import RunningCitecast, ask, serve_answerer
from tests.connectors.web.conftest import (
    CannedAnswerer,
    LiveServer,
    cited_answer,
    passage,
    start_live_server,
)

ANSWERED = ".cc-answer[aria-busy=false]"
# web.title may be 80 characters long (bot/config.py)
LONG_TITLE = "The Knowledge Base Of The Department For Internal Documentation And Onboarding Ltd"[
    :80
]
PHONE: ViewportSize = {"width": 320, "height": 640}

# What scrolls sideways in ``root`` (the page, or the widget's scrolling chat), and the header
# controls that reach past its right edge.
SIDEWAYS = """root => {
  const box = root.getBoundingClientRect();
  const right = Math.min(box.right, innerWidth);
  return {
    scrolls: root.scrollWidth > root.clientWidth,
    outside: Array.from(root.querySelectorAll('.cc-header *'))
      .filter(node => node.getBoundingClientRect().right > right + 1)
      .map(node => node.className || node.tagName),
  };
}"""

# The language a node is read in: its own or its nearest ancestor's, across the shadow root.
LANGUAGE = """node => {
  for (let n = node; n; n = n.parentElement || (n.getRootNode().host || null)) {
    if (n.lang) return n.lang;
  }
  return '';
}"""


def french_site() -> Starlette:
    """A French page that embeds the widget (its citecast URL comes in the query)."""

    async def page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return HTMLResponse(
            "<!doctype html><html lang='fr'><head><title>Acme</title>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'></head>"
            "<body><h1>Aide</h1><p>Notre propre page.</p>"
            f"<script src='{citecast}/widget.js' data-citecast async></script></body></html>"
        )

    return Starlette(routes=[Route("/", page)])


async def stop(running: RunningCitecast, host: LiveServer | None = None) -> None:
    await running.stop()
    if host is not None:
        await host.stop()


async def test_a_phone_with_a_long_title_and_the_widget_on_a_french_page(
    browser: Browser, tmp_path: Path
) -> None:
    host = await start_live_server(french_site())
    running = await serve_answerer(
        tmp_path,
        CannedAnswerer(cited_answer(passage(1))),
        title=LONG_TITLE,
        cors_origins=[host.url],
    )
    context = await browser.new_context(viewport=PHONE)
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await expect(page.locator(".cc-title")).to_have_text(LONG_TITLE)
        await page.screenshot(path=str(artifact("qa-phone-long-title.png")))
        # the title wraps and "New conversation" goes below it: nothing past the screen's edge
        measured = await page.locator("html").evaluate(SIDEWAYS)
        assert measured == {"scrolls": False, "outside": []}, measured
        await expect(page.get_by_role("button", name="New conversation")).to_be_in_viewport(ratio=1)

        site = await context.new_page()
        await site.goto(f"{host.url}/?citecast={running.url}")
        launcher = site.get_by_role("button", name="Ask citecast")
        await launcher.click()
        panel = site.get_by_role("dialog", name=LONG_TITLE)
        await expect(panel).to_be_visible()
        await site.screenshot(path=str(artifact("qa-widget-phone-long-title.png")))
        chat = site.locator("#citecast-panel .cc-root")
        measured = await chat.evaluate(SIDEWAYS)
        assert measured == {"scrolls": False, "outside": []}, measured
        # the widget's English words are not read in the French page's voice (WCAG 3.1.2)
        assert await panel.evaluate(LANGUAGE) == "en"
        assert await launcher.evaluate(LANGUAGE) == "en"
        # Tab from the panel's last control reaches the button, the panel still open: Escape
        # there closes it as it does inside the panel
        await site.get_by_role("button", name="Ask", exact=True).focus()
        await site.keyboard.press("Tab")
        await expect(launcher).to_be_focused()
        await expect(panel).to_be_visible()
        await site.keyboard.press("Escape")
        await expect(panel).to_be_hidden()
        await expect(launcher).to_be_focused()
        await expect(launcher).to_have_attribute("aria-expanded", "false")
    finally:
        await context.close()
        await stop(running, host)


async def test_citations_of_two_pages_of_one_guide_have_different_names(
    browser: Browser, tmp_path: Path
) -> None:
    # a screen reader's list of links shows names only: "Source 1: Guide" twice would not say
    # which page each citation is
    guide = {"title": "Install guide", "url": None}
    answer = cited_answer(passage(1, **guide), passage(7, id="doc-7", section="Upgrades", **guide))
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await ask(page, "How do I install and upgrade it?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        links = page.locator(f"{ANSWERED} .cc-body sup a")
        assert [await link.get_attribute("aria-label") for link in await links.all()] == [
            "Source 1: Install guide, p. 1, Setup > Linux",
            "Source 2: Install guide, p. 7, Upgrades",
        ]
        await expect(links.first).to_have_accessible_name(
            "Source 1: Install guide, p. 1, Setup > Linux"
        )
    finally:
        await context.close()
        await stop(running)


ARABIC_TITLE = "دليل الإعداد"
# The room (px) a source list entry leaves for its number, on its starting side, inside the list.
ROOM_FOR_THE_NUMBER = """li => {
  const list = li.parentElement.getBoundingClientRect();
  const box = li.getBoundingClientRect();
  return getComputedStyle(li).direction === 'rtl' ? list.right - box.right : box.left - list.left;
}"""


async def test_a_keyboard_user_goes_from_a_citation_to_its_source_and_back(
    browser: Browser, tmp_path: Path
) -> None:
    # a source without a link of its own (a record, a passage of an unpublished file) is shown
    # in the source list; a long answer has many citations between it and the way back. Its
    # title is Arabic: the entry reads right to left, its number on its right.
    answer = cited_answer(passage(1), passage(2, url=None, title=ARABIC_TITLE))
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    context = await browser.new_context(viewport={"width": 800, "height": 600})
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await ask(page, "How do I set it up?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        citation = page.locator(f"{ANSWERED} .cc-body sup a").nth(1)
        await citation.focus()
        await page.keyboard.press("Enter")
        entry = page.locator(f"{ANSWERED} ol.sources > li").nth(1)
        await expect(entry).to_be_focused()
        assert await entry.evaluate(ROOM_FOR_THE_NUMBER) >= 16
        await page.keyboard.press("Tab")
        back = entry.get_by_role("button", name="Back to citation 2 in the answer")
        await expect(back).to_be_focused()
        await page.screenshot(path=str(artifact("qa-source-back.png")))
        await page.keyboard.press("Enter")
        await expect(citation).to_be_focused()
        await expect(citation).to_be_in_viewport()
    finally:
        await context.close()
        await stop(running)


# Whether the middle of ``node`` is what a click there would reach (nothing covers it).
UNCOVERED = """node => {
  const r = node.getBoundingClientRect();
  const hit = node.getRootNode().elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === node || node.contains(hit));
}"""


async def test_an_answer_can_be_read_in_the_widget_on_a_very_short_window(
    browser: Browser, tmp_path: Path
) -> None:
    # 320 x 256 CSS px: a 1280 x 1024 screen zoomed to 400% (WCAG 1.4.10), or a phone on its
    # side with its keyboard up; the sticky question box used to cover the whole panel
    host = await start_live_server(french_site())
    running = await serve_answerer(
        tmp_path, CannedAnswerer(cited_answer(passage(1))), cors_origins=[host.url]
    )
    context = await browser.new_context(viewport={"width": 320, "height": 256})
    try:
        site = await context.new_page()
        await site.goto(f"{host.url}/?citecast={running.url}")
        await site.get_by_role("button", name="Ask citecast").click()
        box = site.locator("#citecast-panel .cc-input")
        await expect(box).to_be_focused()
        await box.fill("How do I set it up?")
        await box.press("Enter")
        answer = site.locator(f"#citecast-panel {ANSWERED}")
        await expect(answer).to_have_count(1, timeout=20_000)
        claim = answer.locator(".cc-body p").first
        await claim.scroll_into_view_if_needed()
        await site.screenshot(path=str(artifact("qa-widget-short-window.png")))
        assert await claim.evaluate(UNCOVERED), "the question box covers the answer"
        # the question box is still there to ask again, at the end of the conversation
        await box.scroll_into_view_if_needed()
        assert await box.evaluate(UNCOVERED)
    finally:
        await context.close()
        await stop(running, host)
