"""A question asked while the chat page loads its stored conversation, in headless Chromium:
the page then said "Not sent yet: wait until the chat is ready", while the README promised
"Loading the conversation…" (found in a QA pass). The question is not asked by itself (the
conversation that arrives may change it); it stays in the box and the status line says what
the wait is for; once the conversation is shown, Enter asks it, in that conversation."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import Browser, Route, expect

from tests.connectors.browser.conftest import ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
WAIT = (
    "Not sent yet: the conversation is still loading. Your question stays in the box; "
    "ask it again once the conversation is shown."
)


async def test_a_question_asked_while_the_conversation_loads_waits_in_the_box(
    browser: Browser, tmp_path: Path
) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer)
    page = await browser.new_page()
    release = asyncio.Event()

    async def held(route: Route) -> None:
        await release.wait()  # the stored conversation arrives when the test says
        await route.continue_()

    try:
        await page.goto(running.url + "/")
        await ask(page, "First question?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await page.route("**/api/conversations/*", held)
        await page.reload()
        status = page.get_by_role("status")
        await expect(status).to_have_text("Loading the conversation…")
        await ask(page, "Second question?")
        await expect(status).to_have_text(WAIT)
        box = page.get_by_label("Your question")
        await expect(box).to_have_value("Second question?")
        assert [call[0] for call in answerer.calls] == ["First question?"]

        release.set()
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await expect(page.get_by_role("button", name="Ask", exact=True)).to_be_enabled()
        await expect(box).to_have_value("Second question?")
        await box.press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(2, timeout=20_000)
        assert [call[0] for call in answerer.calls] == ["First question?", "Second question?"]
        # asked in the stored conversation, with the first exchange as its history
        assert len(answerer.calls[1][2]) == 1
    finally:
        await page.close()
        await running.stop()
