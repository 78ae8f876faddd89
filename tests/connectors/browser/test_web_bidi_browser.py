"""Right-to-left text in real headless Chromium: each paragraph of an answer, each source and
the question read in the direction of their own text, in the chat and on the shared page."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, Locator, Page, expect

from bot.assistant.base import ReplyEvent
from bot.models import Exchange, TextDelta
from tests.connectors.browser.conftest import RunningCitecast, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
ARABIC = "قم بتثبيت الحزمة أولاً."
ENGLISH = "Then start the server on port 8000 and open the chat page in a browser."

# Where a block's text sits: "left" or "right", from the gaps between its text and its box.
SIDE = """node => {
  const range = document.createRange();
  range.selectNodeContents(node);
  const text = range.getBoundingClientRect();
  const box = node.getBoundingClientRect();
  return text.left - box.left <= box.right - text.right ? "left" : "right";
}"""


@dataclass
class HeldAnswerer(CannedAnswerer):
    """Streams ``first`` (whole paragraphs), then holds the rest until ``release`` is set."""

    first: str = ""
    release: asyncio.Event = field(default_factory=asyncio.Event)

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        yield TextDelta(self.first)
        await self.release.wait()
        async for event in super().stream(question, audience, history):
            if not isinstance(event, TextDelta):
                yield event


async def side(block: Locator) -> str:
    return str(await block.evaluate(SIDE))


async def answered_page(browser: Browser, running: RunningCitecast, question: str) -> Page:
    page = await (await browser.new_context(viewport={"width": 700, "height": 800})).new_page()
    await page.goto(running.url + "/")
    await page.get_by_label("Your question").fill(question)
    await page.get_by_label("Your question").press("Enter")
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    return page


async def test_an_english_answer_opening_with_arabic_keeps_its_english_left_to_right(
    browser: Browser, tmp_path: Path
) -> None:
    # The answer used to be one dir="auto" block: its first letter (Arabic) made every
    # paragraph right to left, the full stops and citation numbers at the wrong end.
    text = f"{ARABIC}[^1]\n\n{ENGLISH}[^2]\n\n- Install it first.[^1]\n- Then start it.\n"
    answer = cited_answer(passage(1), passage(2), text=text)
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    page = await answered_page(browser, running, "How do I start it?")
    try:
        body = page.locator(f"{ANSWERED} .cc-body")
        arabic = body.locator("p", has_text="قم بتثبيت")
        english = body.locator("p", has_text="Then start the server")
        assert await arabic.evaluate("p => getComputedStyle(p).direction") == "rtl"
        assert await english.evaluate("p => getComputedStyle(p).direction") == "ltr"
        assert await side(arabic) == "right"
        assert await side(english) == "left"
        item = body.locator("li", has_text="Install it first")
        assert await item.evaluate("li => getComputedStyle(li).direction") == "ltr"
        source = body.locator("ol.sources > li").first
        assert await source.evaluate("li => getComputedStyle(li).direction") == "ltr"
    finally:
        await page.context.close()
        await running.stop()


async def test_an_arabic_answer_shows_its_english_sources_and_quotes_left_to_right(
    browser: Browser, tmp_path: Path
) -> None:
    arabic_source = passage(1, title="دليل التثبيت", section="الإعداد", text="نص المقطع الأول.")
    text = f"{ARABIC}[^1]\n\nثم شغّل الخادم على المنفذ 8000.[^2]\n"
    answer = cited_answer(arabic_source, passage(2), text=text)
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    page = await answered_page(browser, running, "كيف أبدأ citecast?")
    try:
        body = page.locator(f"{ANSWERED} .cc-body")
        for paragraph in await body.locator(".answer > p").all():
            assert await side(paragraph) == "right"
        english = body.locator("ol.sources > li", has_text="Guide 2")
        quote = english.locator(".quote")
        assert await english.evaluate("li => getComputedStyle(li).direction") == "ltr"
        assert await quote.evaluate("q => getComputedStyle(q).direction") == "ltr"
        # the quote's rule is on the side its text starts from
        assert await quote.evaluate("q => getComputedStyle(q).borderLeftWidth") == "3px"
        arabic = body.locator("ol.sources > li", has_text="دليل التثبيت").locator(".quote")
        assert await arabic.evaluate("q => getComputedStyle(q).direction") == "rtl"
        assert await arabic.evaluate("q => getComputedStyle(q).borderRightWidth") == "3px"
        # the tooltip of an Arabic source reads right to left too
        await body.locator("sup a").first.focus()
        tip_quote = body.locator("[role=tooltip]:visible .cc-tip-quote")
        assert await tip_quote.evaluate("q => getComputedStyle(q).direction") == "rtl"
        # an Arabic question ending in Latin letters keeps its question mark at its end
        question = page.locator(".cc-question span[dir]")
        assert await question.evaluate("q => getComputedStyle(q).direction") == "rtl"
        assert await page.get_by_label("Your question").get_attribute("dir") == "auto"
    finally:
        await page.context.close()
        await running.stop()


async def test_the_shared_page_of_a_mixed_answer_keeps_each_paragraph_in_its_direction(
    browser: Browser, tmp_path: Path
) -> None:
    text = f"{ARABIC}[^1]\n\n{ENGLISH}[^2]\n"
    running = await serve_answerer(
        tmp_path, CannedAnswerer(cited_answer(passage(1), passage(2), text=text))
    )
    page = await answered_page(browser, running, "How do I start it?")
    try:
        share_url = await page.evaluate(
            "cid => fetch('/api/conversations/' + cid).then(r => r.json())"
            ".then(d => d.turns[0].share_url)",
            await page.evaluate("localStorage.getItem('citecast.conversation')"),
        )
        await page.goto(share_url)
        english = page.locator(".cc-body p", has_text="Then start the server")
        await expect(english).to_be_visible()
        assert await side(english) == "left"
        assert await side(page.locator(".cc-body p", has_text="قم بتثبيت")) == "right"
    finally:
        await page.context.close()
        await running.stop()


async def test_paragraphs_read_in_their_own_direction_while_the_answer_streams(
    browser: Browser, tmp_path: Path
) -> None:
    # while streaming, the blocks arrived without the answer's dir="auto": an Arabic paragraph
    # read left to right, its full stop and citation number at its start
    first = f"{ARABIC}\n\n{ENGLISH}\n\nMore"
    answerer = HeldAnswerer(cited_answer(passage(1), text=f"{first} to come.\n"), first=first)
    running = await serve_answerer(tmp_path, answerer)
    page = await (await browser.new_context(viewport={"width": 700, "height": 800})).new_page()
    try:
        await page.goto(running.url + "/")
        await page.get_by_label("Your question").fill("How?")
        await page.get_by_label("Your question").press("Enter")
        arabic = page.locator(".cc-answer[aria-busy=true] p", has_text="قم بتثبيت")
        english = page.locator(".cc-answer[aria-busy=true] p", has_text="Then start")
        await expect(english).to_be_visible(timeout=20_000)
        assert await side(arabic) == "right"
        assert await side(english) == "left"
        answerer.release.set()
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    finally:
        answerer.release.set()
        await page.context.close()
        await running.stop()
