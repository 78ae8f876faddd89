"""The chat as someone who zooms in or is made unwell by motion meets it, in headless Chromium:
at 320 CSS px wide (a 1280 px window at 400%, WCAG 1.4.10) an answer with long unbroken words
in its question, text and sources scrolls nothing sideways, on the page or in the widget; and
with prefers-reduced-motion the "Searching…" indicator stands still (it pulses otherwise)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

from playwright.async_api import Browser, expect

from tests.connectors.browser.conftest import RunningCitecast, ask, serve_answerer
from tests.connectors.browser.widget_host import own_host_page
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
WAIT = 20_000
WORD = "Configuration" * 8  # 104 letters, no place to break
QUESTION = f"Why {WORD}?"

# What reaches past the right edge of the window, and whether the page scrolls sideways.
SIDEWAYS = """() => {
  const within = root => Array.from(root.querySelectorAll('*')).flatMap(node =>
    [...(node.getBoundingClientRect().right > innerWidth + 1 &&
         !node.closest('pre, table, [role=tooltip]') ? [node.className || node.tagName] : []),
     ...(node.shadowRoot ? within(node.shadowRoot) : [])]);
  return {scrolls: document.documentElement.scrollWidth > innerWidth, outside: within(document)};
}"""


def long_words_answer() -> CannedAnswerer:
    source = passage(
        1,
        title=WORD,
        url="https://docs.example.com/" + "x" * 120,
        section="A" * 70 + " > " + "B" * 60,
        text="Quote" + "q" * 200,
    )
    return CannedAnswerer(cited_answer(source, text=f"See {WORD} for it.[^1]"))


async def test_long_words_scroll_nothing_sideways_at_320_px(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, long_words_answer())
    context = await browser.new_context(viewport={"width": 320, "height": 640})
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await ask(page, QUESTION)
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=WAIT)
        assert await page.evaluate(SIDEWAYS) == {"scrolls": False, "outside": []}

        # the widget, served by citecast on a page of its own origin
        host = await own_host_page(page, running.url)
        await page.goto(host)
        await page.get_by_role("button", name="Ask citecast").click()
        await ask(page, QUESTION)
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=WAIT)
        assert await page.evaluate(SIDEWAYS) == {"scrolls": False, "outside": []}
        chat = page.locator("#citecast-panel .cc-root")
        assert await chat.evaluate("c => c.scrollWidth <= c.clientWidth")
    finally:
        await context.close()
        await running.stop()


async def running_animations(
    browser: Browser, running: RunningCitecast, motion: Literal["reduce", "no-preference"]
) -> int:
    """How many animations run on the "Searching…" indicator of an answer not yet begun."""
    context = await browser.new_context(reduced_motion=motion)
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await ask(page, "How do I install it?")
        typing = page.locator(".cc-typing")
        await expect(typing).to_be_visible(timeout=WAIT)
        count: int = await typing.evaluate("t => t.getAnimations().length")
        return count
    finally:
        await context.close()


async def test_reduced_motion_stops_the_searching_indicator(
    browser: Browser, tmp_path: Path
) -> None:
    gate = asyncio.Event()  # never set: the answer stays "Searching…" while the test looks
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1)), gate=gate))
    try:
        assert await running_animations(browser, running, "no-preference") == 1
        assert await running_animations(browser, running, "reduce") == 0
    finally:
        gate.set()
        await running.stop()
