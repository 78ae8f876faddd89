"""A conversation longer than the conversation endpoint's page, reloaded in headless Chromium:
the chat shows the latest 200 turns and says the earlier ones are not shown (the endpoint's
``earlier``), rather than letting the first answers look lost."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from bot.connectors.web_turns import CONVERSATION_PAGE
from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage
from tests.connectors.web.test_web_long_conversation import seed

NOTE = (
    f"Earlier questions of this conversation are not shown here; only the latest "
    f"{CONVERSATION_PAGE} are."
)


async def test_a_long_conversation_says_its_earlier_turns_are_not_shown(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    store = running.services.store
    long, short = store.new_conversation_id(), store.new_conversation_id()
    seed(store, long, CONVERSATION_PAGE + 5, passage(1))
    seed(store, short, 3, passage(1))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        for conversation, turns in ((long, CONVERSATION_PAGE), (short, 3)):
            await page.evaluate(
                "(id) => localStorage.setItem('citecast.conversation', id)", conversation
            )
            await page.reload()
            answers = page.locator(".cc-answer[aria-busy=false]")
            await expect(answers).to_have_count(turns, timeout=20_000)
            note = page.locator(".cc-earlier .cc-note")
            if turns == CONVERSATION_PAGE:
                await expect(note).to_have_text(NOTE)
                await expect(answers.first).to_contain_text("Answer Q5.")
            else:
                await expect(note).to_have_count(0)
    finally:
        await page.close()
        await running.stop()
