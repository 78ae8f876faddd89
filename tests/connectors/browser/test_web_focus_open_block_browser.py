"""A citation focused in the paragraph still being written keeps the focus and its open
tooltip as the paragraph grows, in headless Chromium.

Each ``delta`` replaces the open last block (``tail``) with its longer version, so a citation
focused there was removed from the page with it: the focus fell to ``<body>`` and the tooltip
being read closed. A hovered one keeps its tooltip without help (Chromium finds the new number
under the pointer before the next frame); its test guards that.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, Page, expect

from bot.assistant.base import ReplyEvent
from bot.models import Exchange, TextDelta
from tests.connectors.browser.conftest import RunningCitecast, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

# one paragraph: every sentence of it is the open last block until the answer ends; the
# sentences cite 2, 1, 2, 1, … so each number has several markers in it
TEXT = " ".join(f"Sentence {i} of one long paragraph.[^{i % 2 + 1}]" for i in range(1, 13))
HALF = TEXT.index("Sentence 7")
LATE = TEXT.index("Sentence 12")
STREAMING = ".cc-answer[aria-busy=true]"

# the focused element: its tag, its citation number, its place among that number's markers
# in the answer, and whether its tooltip shows
FOCUSED = """() => {
  const a = document.activeElement;
  const n = a.getAttribute('data-n');
  const same = [...document.querySelectorAll('.cc-answer sup a')]
    .filter((x) => x.getAttribute('data-n') === n);
  const tip = a.parentNode.querySelector('[role=tooltip]');
  return [a.tagName, n, same.indexOf(a), !!tip && !tip.hidden];
}"""

# counts the frames drawn with no tooltip showing
FRAMES = """() => {
  window.framesWithoutTip = 0;
  const look = () => {
    if (!document.querySelector('.cc-answer [role=tooltip]:not([hidden])')) {
      window.framesWithoutTip += 1;
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


@dataclass
class PausedMidParagraph(CannedAnswerer):
    """Streams the paragraph's first half, waits for ``release``, streams on to its last
    sentence, waits for ``finish``, then streams the rest."""

    release: asyncio.Event = field(default_factory=asyncio.Event)
    finish: asyncio.Event = field(default_factory=asyncio.Event)
    half: int = HALF
    late: int = LATE

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        sent = 0
        async for event in super().stream(question, audience, history):
            if isinstance(event, TextDelta):
                if sent < self.half <= sent + len(event.text):
                    await self.release.wait()
                if sent < self.late <= sent + len(event.text):
                    await self.finish.wait()
                sent += len(event.text)
            yield event


async def half_written(
    browser: Browser, tmp_path: Path, text: str = TEXT
) -> tuple[Page, RunningCitecast, PausedMidParagraph]:
    """A chat page whose answer has stopped halfway through its first paragraph."""
    answer = cited_answer(passage(1), passage(2), text=text)
    answerer = PausedMidParagraph(
        answer, chunk=8, half=text.index("Sentence 7"), late=text.index("Sentence 12")
    )
    running = await serve_answerer(tmp_path, answerer)
    page = await browser.new_page()
    await page.goto(running.url + "/")
    await page.get_by_label("Your question").fill("Tell me slowly")
    await page.get_by_label("Your question").press("Enter")
    await expect(page.locator(".cc-answer")).to_contain_text("Sentence 5")
    return page, running, answerer


async def test_a_citation_focused_in_the_growing_paragraph_keeps_the_focus(
    browser: Browser, tmp_path: Path
) -> None:
    page, running, answerer = await half_written(browser, tmp_path)
    try:
        # the second marker of its number, so "the first one of that number" would not pass
        marker = page.locator(f"{STREAMING} .cc-pending sup a").nth(2)
        await marker.focus()
        before = await page.evaluate(FOCUSED)
        assert before[0] == "A" and before[2] == 1 and before[3], before
        answerer.release.set()
        await expect(page.locator(STREAMING)).to_contain_text("Sentence 10")
        # still streaming: the open block has been replaced many times meanwhile
        assert await page.evaluate(FOCUSED) == before
        answerer.finish.set()
        await expect(page.locator(".cc-answer[aria-busy=false]")).to_have_count(1)
        assert (await page.evaluate(FOCUSED))[:3] == before[:3]
    finally:
        await page.close()
        await running.stop()


async def test_a_tooltip_hovered_in_the_growing_paragraph_stays_open(
    browser: Browser, tmp_path: Path
) -> None:
    page, running, answerer = await half_written(browser, tmp_path)
    try:
        await page.locator(f"{STREAMING} .cc-pending sup a").first.hover()
        tip = page.locator(f"{STREAMING} [role=tooltip]:not([hidden])")
        await expect(tip).to_have_count(1)
        # every frame drawn while the paragraph grows: none without the tooltip (Chromium
        # itself finds the new number under the pointer a frame later: a flicker, not a hold)
        await page.evaluate(FRAMES)
        answerer.release.set()
        await expect(page.locator(STREAMING)).to_contain_text("Sentence 10")
        await expect(tip).to_have_count(1)
        await expect(tip).to_contain_text("Passage")
        assert await page.evaluate("window.framesWithoutTip") == 0
        answerer.finish.set()
    finally:
        await page.close()
        await running.stop()


async def test_the_focus_stays_when_the_paragraph_is_finished_and_the_next_begins(
    browser: Browser, tmp_path: Path
) -> None:
    # the focused paragraph moves from the open block to the finished ones midway
    first = " ".join(f"Sentence {i} of the first paragraph.[^{i % 2 + 1}]" for i in range(1, 9))
    second = "\n".join(f"Sentence {i} of the next one.[^{i % 2 + 1}]" for i in range(9, 13))
    page, running, answerer = await half_written(browser, tmp_path, f"{first}\n\n{second}")
    try:
        await page.locator(f"{STREAMING} .cc-pending sup a").nth(3).focus()
        before = await page.evaluate(FOCUSED)
        assert before[0] == "A" and before[2] == 1 and before[3], before
        answerer.release.set()
        await expect(page.locator(f"{STREAMING} .cc-body")).to_contain_text("Sentence 8")
        await expect(page.locator(STREAMING)).to_contain_text("Sentence 10")
        assert await page.evaluate(FOCUSED) == before
        answerer.finish.set()
    finally:
        await page.close()
        await running.stop()
