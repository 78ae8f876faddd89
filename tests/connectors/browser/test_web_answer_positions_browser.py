"""Each answer's source list is named after the answer's place in the whole conversation, in
headless Chromium: "Sources for answer 206: …" stays the name of that answer when a reload of a
conversation longer than the endpoint's page shows only its latest turns, on every normal
reload, and after a question that never reached the server (its card is on the page, but it is
no turn of the conversation)."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Locator, Page, Route, expect

from bot.connectors.web_turns import CONVERSATION_PAGE
from tests.connectors.browser.conftest import ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage
from tests.connectors.web.test_web_long_conversation import seed

ANSWERED = ".cc-answer[aria-busy=false]"
WAIT = 20_000
STREAM = "**/api/ask/stream*"
EXTRA = 5  # turns of the long conversation before the latest page


def source_list(page: Page, nth: int) -> Locator:
    """The source list of the ``nth`` answered turn on the page (-1: the last)."""
    return page.locator(ANSWERED).nth(nth).locator("ol.sources")


async def test_a_long_conversation_reloaded_names_its_answers_by_their_real_place(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    conversation = running.services.store.new_conversation_id()
    seed(running.services.store, conversation, CONVERSATION_PAGE + EXTRA, passage(1))
    total = CONVERSATION_PAGE + EXTRA
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await page.evaluate(
            "(id) => localStorage.setItem('citecast.conversation', id)", conversation
        )
        await page.reload()
        await expect(page.locator(ANSWERED)).to_have_count(CONVERSATION_PAGE, timeout=WAIT)
        # the first turn shown is the conversation's 6th (Q5, seeded from Q0), not its 1st
        await expect(source_list(page, 0)).to_have_accessible_name(
            f"Sources for answer {EXTRA + 1}: Q{EXTRA}?"
        )
        await expect(source_list(page, -1)).to_have_accessible_name(
            f"Sources for answer {total}: Q{total - 1}?"
        )
        # a question asked now continues the count
        await ask(page, "And now?")
        await expect(page.locator(ANSWERED)).to_have_count(CONVERSATION_PAGE + 1, timeout=WAIT)
        live = f"Sources for answer {total + 1}: And now?"
        await expect(source_list(page, -1)).to_have_accessible_name(live)
        # reloaded, the latest 200 begin one turn later; every answer keeps its name
        await page.reload()
        await expect(page.locator(ANSWERED)).to_have_count(CONVERSATION_PAGE, timeout=WAIT)
        await expect(source_list(page, 0)).to_have_accessible_name(
            f"Sources for answer {EXTRA + 2}: Q{EXTRA + 1}?"
        )
        await expect(source_list(page, -1)).to_have_accessible_name(live)
        await expect(page.get_by_role("heading", name=live, exact=True)).to_have_count(1)
    finally:
        await page.close()
        await running.stop()


async def test_a_question_that_never_reached_the_server_takes_no_number(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    page = await browser.new_page()

    async def cut(route: Route) -> None:
        await route.abort()  # as a dropped network does: the server never hears the question

    try:
        await page.goto(running.url + "/")
        await ask(page, "How do I install it?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=WAIT)
        await page.route(STREAM, cut)
        await ask(page, "Never sent?")
        await expect(page.locator(".cc-answer.cc-failed")).to_have_count(1, timeout=WAIT)
        await page.unroute(STREAM, cut)
        await ask(page, "How do I upgrade it?")
        await expect(page.locator(ANSWERED)).to_have_count(3, timeout=WAIT)
        names = [
            "Sources for answer 1: How do I install it?",
            "Sources for answer 2: How do I upgrade it?",
        ]
        for name in names:
            await expect(page.get_by_role("list", name=name, exact=True)).to_have_count(1)
        # a normal reload: the same names (the question never sent is not stored)
        await page.reload()
        await expect(page.locator(ANSWERED)).to_have_count(2, timeout=WAIT)
        for nth, name in enumerate(names):
            await expect(source_list(page, nth)).to_have_accessible_name(name)
    finally:
        await page.close()
        await running.stop()
