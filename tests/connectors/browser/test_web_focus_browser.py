"""Keyboard focus on a streaming answer, in headless Chromium: a citation focused while the
answer streams keeps the focus when the finished answer replaces the streamed one, and an
answer that fails sends it to the question box, never to the page."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, Page, expect

from bot.assistant.base import Reply, ReplyEvent
from bot.errors import BackendError
from bot.models import Exchange
from tests.connectors.browser.conftest import RunningCitecast, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

TEXT = "\n\n".join(f"Paragraph {i} of a slow answer.[^{i % 2 + 1}]" for i in range(1, 24))
FOCUSED = (
    "() => { const a = document.activeElement; return [a.tagName, a.className,"
    " a.getAttribute('data-n'), !!a.closest('.cc-body')]; }"
)


@dataclass
class HeldAtTheEnd(CannedAnswerer):
    """Streams the whole answer, then waits for ``release`` before finishing it (or, with
    ``fail_at_end``, failing instead): the test acts while the answer is still streaming."""

    release: asyncio.Event = field(default_factory=asyncio.Event)
    fail_at_end: bool = False

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        async for event in super().stream(question, audience, history):
            if isinstance(event, Reply):
                await self.release.wait()
                if self.fail_at_end:
                    raise BackendError("refused at the end")
            yield event


async def focus_a_citation_while_streaming(
    page: Page, running: RunningCitecast, answerer: HeldAtTheEnd
) -> None:
    await page.goto(running.url + "/")
    await page.get_by_label("Your question").fill("Tell me slowly")
    await page.get_by_label("Your question").press("Enter")
    await expect(page.locator(".cc-answer")).to_contain_text("Paragraph 23")
    second = page.locator(".cc-answer[aria-busy=true] .cc-body sup a").nth(1)
    await second.focus()
    assert await page.evaluate(FOCUSED) == ["A", "", "1", True]
    answerer.release.set()


async def test_a_citation_focused_while_streaming_keeps_the_focus(
    browser: Browser, tmp_path: Path
) -> None:
    answerer = HeldAtTheEnd(cited_answer(passage(1), passage(2), text=TEXT), chunk=8)
    running = await serve_answerer(tmp_path, answerer)
    page = await browser.new_page()
    try:
        await focus_a_citation_while_streaming(page, running, answerer)
        await expect(page.locator(".cc-answer[aria-busy=false]")).to_have_count(1, timeout=20_000)
        await expect(page.locator(".cc-actions")).to_have_count(1)
        # the same citation of the finished answer, its tooltip showing
        assert await page.evaluate(FOCUSED) == ["A", "", "1", True]
        tip = await page.evaluate("document.activeElement.getAttribute('aria-describedby')")
        await expect(page.locator(f"[id='{tip}']")).to_be_visible()
        await page.keyboard.press("Tab")  # and Tab goes on from there, inside the answer
        assert await page.evaluate(FOCUSED) == ["A", "", "2", True]
    finally:
        await page.close()
        await running.stop()


async def test_an_answer_failing_while_a_citation_has_focus_moves_it_to_the_box(
    browser: Browser, tmp_path: Path
) -> None:
    answerer = HeldAtTheEnd(
        cited_answer(passage(1), passage(2), text=TEXT), chunk=8, fail_at_end=True
    )
    running = await serve_answerer(tmp_path, answerer)
    page = await browser.new_page()
    try:
        await focus_a_citation_while_streaming(page, running, answerer)
        await expect(page.locator(".cc-failed .cc-error")).to_have_text(
            "the assistant failed to answer; try again", timeout=20_000
        )
        box = page.get_by_label("Your question")
        await expect(box).to_be_focused()
        await expect(box).to_have_value("Tell me slowly")
    finally:
        await page.close()
        await running.stop()
