"""A fault in the chat page's own code while it shows an answer, in real headless Chromium.

The page's script throws (here: ``Citecast.sources.decorate``, which every cited answer calls,
made to throw while ``window.__ccBreak`` is set). That is no network failure: the turn says so
truthfully, the question is back in the box, and the chat answers the next question.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from tests.connectors.browser.conftest import RunningCitecast, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]:not(.cc-failed)"
QUESTION = "Is it true?"

BREAK_DECORATE = """() => {
  window.__ccBreak = true;
  const real = window.Citecast.sources.decorate;
  window.Citecast.sources.decorate = function () {
    if (window.__ccBreak) throw new Error("a fault in the page's own code");
    return real.apply(this, arguments);
  };
}"""


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[RunningCitecast]:
    answer = cited_answer(passage(1), passage(2))
    served = await serve_answerer(tmp_path, CannedAnswerer(answer))
    yield served
    await served.stop()


async def ask(page: Page, question: str) -> None:
    await page.get_by_label("Your question").fill(question)
    await page.get_by_label("Your question").press("Enter")


async def test_a_fault_in_the_page_is_said_as_such_and_the_chat_still_answers(
    browser: Browser, running: RunningCitecast
) -> None:
    page = await browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        await page.goto(running.url + "/")
        await expect(page.get_by_role("heading", name="citecast")).to_be_visible()
        await page.evaluate(BREAK_DECORATE)
        await ask(page, QUESTION)

        failed = page.locator(".cc-answer.cc-failed")
        await expect(failed).to_have_count(1, timeout=20_000)
        await expect(failed.locator("p.cc-error")).to_contain_text("error in this page")
        await expect(failed.locator("p.cc-error")).to_contain_text("not a connection problem")
        status = page.locator(".cc-status")
        await expect(status).to_have_text(
            "Not answered; your question is back in the box to ask again."
        )
        await expect(page.get_by_label("Your question")).to_have_value(QUESTION)
        await expect(page.get_by_role("button", name="Ask")).to_be_enabled()
        await expect(page.locator(".cc-log")).to_have_attribute("aria-busy", "false")
        assert any("could not show the answer" in text for text in errors), errors

        # the fault is gone: asking again (the question is still in the box) gets the answer,
        # never "An answer is still being written…" nor "Cannot reach the citecast server"
        await page.evaluate("window.__ccBreak = false")
        await page.get_by_label("Your question").press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await expect(page.locator(ANSWERED).locator(".cc-body p").first).to_contain_text(
            "Claim 1 is true."
        )
        await expect(status).to_have_text("Answered with 2 sources.")
        assert "Cannot reach" not in await page.locator(".cc-chat").inner_text()
    finally:
        await page.context.close()


async def test_a_fault_showing_a_stored_answer_after_a_reload_is_not_a_lost_server(
    browser: Browser, running: RunningCitecast
) -> None:
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, QUESTION)
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        # the page's code throws while the reloaded conversation is shown
        await page.add_init_script(
            "document.addEventListener('DOMContentLoaded', () => (" + BREAK_DECORATE + ")())"
        )
        await page.reload()
        failed = page.locator(".cc-answer.cc-failed")
        await expect(failed).to_have_count(1, timeout=20_000)
        await expect(failed.locator("p.cc-error")).to_contain_text("error in this page")
        await expect(page.get_by_role("button", name="Ask")).to_be_enabled()
        assert "Cannot reach" not in await page.locator(".cc-chat").inner_text()
        # an answer from before the reload: its question is not put back in the box
        await expect(page.get_by_label("Your question")).to_have_value("")
    finally:
        await page.context.close()
