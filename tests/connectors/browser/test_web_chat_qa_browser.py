"""The chat page in real headless Chromium: what a keyboard, pointer or screen-reader user meets
around an answer (tooltips that can be hovered, focus that stays put after a vote or a copy), a
question asked while the conversation is still loading, an answer that fails halfway, and the
shared answer page."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Browser, Page, Route, ViewportSize, expect

from bot.assistant.base import Reply, ReplyEvent
from bot.errors import BackendError
from bot.models import Exchange
from tests.chromium import artifact
from tests.connectors.browser.conftest import RunningCitecast, ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"


async def answered(
    browser: Browser, running: RunningCitecast, viewport: ViewportSize | None = None
) -> Page:
    """A new page (in a context of its own) that asked one question and shows the answer."""
    page = await (await browser.new_context(viewport=viewport)).new_page()
    await page.goto(running.url + "/")
    await ask(page, "How do I set it up?")
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    return page


async def test_a_tooltip_stays_open_while_the_pointer_moves_onto_it(
    browser: Browser, tmp_path: Path
) -> None:
    # WCAG 1.4.13: content shown on hover can itself be hovered (to read or magnify a long quote)
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1), passage(2))))
    page = await answered(browser, running, viewport={"width": 900, "height": 700})
    try:
        link = page.locator(f"{ANSWERED} .cc-body sup a").first
        await link.hover()
        tip = page.locator(f"[id='{await link.get_attribute('aria-describedby')}']")
        await expect(tip).to_be_visible()
        here, there = await link.bounding_box(), await tip.bounding_box()
        assert here and there and there["y"] > here["y"] + here["height"]
        # as a hand moves towards the start of the quote: out of the small number's side,
        # then down across the gap onto the quote
        await page.mouse.move(here["x"] - 3, here["y"] + here["height"] / 2, steps=4)
        await page.mouse.move(there["x"] + 4, there["y"] + there["height"] - 4, steps=20)
        await expect(tip).to_be_visible()
        await page.wait_for_timeout(600)  # and it stays
        await expect(tip).to_be_visible()
        await page.screenshot(path=str(artifact("chat-tooltip-hovered.png")))
        # Escape dismisses it while hovered; leaving, then coming back, shows it again
        await page.keyboard.press("Escape")
        await expect(tip).to_be_hidden()
        await page.mouse.move(5, 5)
        await link.hover()
        await expect(tip).to_be_visible()
        await page.mouse.move(5, 5)
        await expect(tip).to_be_hidden()
    finally:
        await page.context.close()
        await running.stop()


async def test_voting_keeps_keyboard_focus_on_the_vote(browser: Browser, tmp_path: Path) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1), passage(2))))
    page = await answered(browser, running)
    try:
        votes = page.get_by_role("group", name="Was this helpful?")
        helpful = votes.get_by_role("button", name="Helpful", exact=True)
        await helpful.focus()
        await page.keyboard.press("Enter")
        await expect(page.locator(".cc-status")).to_have_text("Thanks for the feedback.")
        await expect(helpful).to_have_attribute("aria-pressed", "true")
        # focus is not dropped to the page: the pressed vote keeps it, and says it is done
        await expect(helpful).to_be_focused()
        await expect(helpful).to_be_disabled()
        # pressing it again sends nothing more
        await page.keyboard.press("Enter")
        await page.keyboard.press("Tab")
        await expect(votes.get_by_role("button", name="Not helpful")).to_be_focused()
        await page.keyboard.press("Enter")
        await page.wait_for_timeout(300)
        await expect(votes.get_by_role("button", name="Not helpful")).to_have_attribute(
            "aria-pressed", "false"
        )
        await expect(page.locator(".cc-status")).to_have_text("Thanks for the feedback.")
        turn_id = int(await page.locator(ANSWERED).get_attribute("data-turn-id") or 0)
        assert running.services.store.feedback(turn_id) == ["helpful"]
    finally:
        await page.context.close()
        await running.stop()


async def test_a_vote_that_could_not_be_sent_keeps_focus_and_can_be_retried(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    page = await answered(browser, running)

    async def refuse(route: Route) -> None:
        await route.fulfill(status=500, json={"error": "the store is down"})

    try:
        await page.route("**/api/feedback", refuse)
        helpful = page.get_by_role("button", name="Helpful", exact=True)
        await helpful.focus()
        await page.keyboard.press("Enter")
        await expect(page.locator(".cc-status")).to_have_text(
            "Could not send the feedback; try again."
        )
        await expect(helpful).to_be_focused()
        await expect(helpful).to_be_enabled()
        await page.unroute("**/api/feedback")
        await page.keyboard.press("Enter")
        await expect(page.locator(".cc-status")).to_have_text("Thanks for the feedback.")
        await expect(helpful).to_have_attribute("aria-pressed", "true")
    finally:
        await page.context.close()
        await running.stop()


NO_CLIPBOARD_API = """
Object.defineProperty(navigator, 'clipboard', {
  value: {writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError'))},
});
"""


async def test_copying_without_the_clipboard_api_keeps_focus_on_the_button(
    browser: Browser, tmp_path: Path
) -> None:
    # a deployment on plain http (no secure context) or a browser that denies the clipboard:
    # the page copies through a hidden text box, and must give focus back
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    context = await browser.new_context()
    await context.add_init_script(NO_CLIPBOARD_API)
    page = await context.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "How do I set it up?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        copy = page.get_by_role("button", name="Copy answer")
        await copy.focus()
        await page.keyboard.press("Enter")
        await expect(page.locator(".cc-status")).to_have_text("Answer copied to the clipboard.")
        await expect(copy).to_be_focused()
        assert await page.locator("textarea").count() == 1  # the helper box is gone again
    finally:
        await context.close()
        await running.stop()


async def test_a_question_asked_while_the_conversation_loads_joins_it(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    page = await browser.new_page()
    loaded = asyncio.Event()

    async def slow(route: Route) -> None:
        await asyncio.sleep(1.0)
        await route.continue_()
        loaded.set()

    try:
        await page.goto(running.url + "/")
        await ask(page, "First question")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await page.route("**/api/conversations/*", slow)
        await page.reload()
        # asked before the stored conversation has arrived: it waits, it is not a new one
        await ask(page, "Second question")
        await expect(page.get_by_role("button", name="Ask", exact=True)).to_be_disabled()
        await asyncio.wait_for(loaded.wait(), 10)
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=10_000)
        await expect(page.get_by_role("button", name="Ask", exact=True)).to_be_enabled()
        await expect(page.get_by_label("Your question")).to_have_value("Second question")
        await page.get_by_label("Your question").press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(2, timeout=20_000)
        await page.unroute("**/api/conversations/*")
        await page.reload()
        await expect(page.locator(ANSWERED)).to_have_count(2, timeout=10_000)
        questions = await page.locator(".cc-question span:not(.cc-sr)").all_inner_texts()
        assert questions == ["First question", "Second question"]
    finally:
        await page.close()
        await running.stop()


@dataclass
class FailsAfterStreaming(CannedAnswerer):
    """Streams the whole answer's text, then fails instead of finishing it."""

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        async for event in super().stream(question, audience, history):
            if isinstance(event, Reply):
                raise BackendError("the answer was refused at the end")
            await asyncio.sleep(0.01)
            yield event


async def test_an_answer_that_fails_halfway_shows_none_of_its_text(
    browser: Browser, tmp_path: Path
) -> None:
    # what was streamed is not the answer: the turn is stored failed, a reload shows no text,
    # and an answer refused at the end (a source the viewer may not see) is never shown
    text = "First block.[^1]\n\nSecond block.[^2]\n\nThird block is the longest of them all.[^1]"
    answer = cited_answer(passage(1), passage(2), text=text)
    running = await serve_answerer(tmp_path, FailsAfterStreaming(answer, chunk=6))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await page.evaluate(
            """() => { window.streamed = '';
              new MutationObserver(() => {
                const text = (document.querySelector('.cc-answer') || {}).textContent || '';
                if (text.length > window.streamed.length) window.streamed = text;
              }).observe(document.querySelector('.cc-log'), {childList: true, subtree: true}); }"""
        )
        await ask(page, "Tell me")
        reason = page.locator(".cc-failed .cc-error")
        await expect(reason).to_have_text("the assistant failed to answer; try again")
        assert "First block" in await page.evaluate("window.streamed")  # it did stream
        card = page.locator(".cc-answer")
        await expect(card.locator(".cc-body")).to_have_text("")
        assert await card.locator("sup, .cc-pending").count() == 0
        await page.screenshot(path=str(artifact("chat-failed-halfway.png")))
        await page.reload()
        await expect(page.locator(".cc-failed .cc-error")).to_have_text(
            "This question was not answered (the server stopped or failed)."
        )
        await expect(page.locator(".cc-answer .cc-body")).to_have_text("")
    finally:
        await page.close()
        await running.stop()


async def test_the_shared_page_keeps_its_heading_apart_from_the_answer(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    context = await browser.new_context(viewport={"width": 375, "height": 740})
    page = await context.new_page()
    try:
        response = await page.request.post(running.url + "/api/ask", data={"question": "Why?"})
        await page.goto((await response.json())["share_url"])
        header = await page.locator(".cc-header").bounding_box()
        card = await page.locator(".cc-answer").bounding_box()
        assert header and card
        # the same space as between the chat's header and its first turn
        assert card["y"] - (header["y"] + header["height"]) >= 12, (header, card)
        await page.screenshot(path=str(artifact("turn-page-phone.png")))
    finally:
        await context.close()
        await running.stop()


async def test_the_page_counts_a_question_as_the_server_does(
    browser: Browser, tmp_path: Path
) -> None:
    # the server counts after Unicode normalization (NFC), which writes some letters, such as
    # Devanagari ones with a nukta, as two characters, and after removing control characters
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, max_question_chars=40)
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        box = page.get_by_label("Your question")
        await expect(box).to_be_editable()
        await page.wait_for_load_state("networkidle")  # /api/config has set the limit
        await box.focus()
        await page.keyboard.insert_text("\u0958" * 30)  # 30 typed, 60 once normalized
        await expect(page.locator(".cc-status")).to_have_text(
            "The question is 60 characters long; shorten it to 40 or fewer before asking."
        )
        await box.press("Enter")
        await box.fill("\u0007\u0008")  # pasted control characters only
        await box.press("Enter")
        await expect(page.locator(".cc-status")).to_have_text("Type a question first.")
        assert await page.locator(".cc-turn").count() == 0 and answerer.calls == []
        await box.fill("\u0958" * 20)  # 40 once normalized: asked
        await box.press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        assert [len(call[0]) for call in answerer.calls] == [40]
    finally:
        await page.close()
        await running.stop()
