"""The chat page in real headless Chromium, with scripted answers the sample knowledge base does
not give: a wide table, a slow stream (reloaded halfway, read by a screen reader), a failure,
and a question over the length limit."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from playwright.async_api import Browser, Page, Route, expect

from tests.chromium import artifact
from tests.connectors.browser.conftest import SlowAnswerer, ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
WIDE_CELL = "Supercalifragilisticexpialidocious"
TABLE = (
    "Here are the plans.[^1]\n\n"
    "| plan | price | seats | support | notes | region | sla | one | two | three |\n"
    "|---|---|---|---|---|---|---|---|---|---|\n"
    + "".join(
        f"| Plan{i} | ${i * 10} | {i * 5} | email and chat | {WIDE_CELL} | eu-west-1 | 99.9% "
        "| value | more | last |\n"
        for i in range(1, 4)
    )
    + "\nPrices are monthly.[^2]\n"
)
SLOW_TEXT = " ".join(f"Sentence {i} of a slow answer.[^{i % 2 + 1}]" for i in range(1, 13))


async def broken_one_word_cells(page: Page) -> list[str]:
    """The text of every one-word table cell (no space, no hyphen) broken over lines."""
    broken: list[str] = await page.evaluate(
        """() => Array.from(document.querySelectorAll('.cc-body td, .cc-body th'))
          .filter(cell => !/[\\s-]/.test(cell.textContent.trim()))
          .filter(cell => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return range.getClientRects().length > 1;
          }).map(cell => cell.textContent)"""
    )
    return broken


async def test_a_wide_table_keeps_its_words_and_scrolls_sideways(
    browser: Browser, tmp_path: Path
) -> None:
    answer = cited_answer(passage(1), passage(2), text=TABLE)
    running = await serve_answerer(tmp_path, CannedAnswerer(answer, chunk=40))
    context = await browser.new_context(viewport={"width": 375, "height": 740})
    page = await context.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "Which plans are there?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        share_url = await page.evaluate(
            "fetch('/api/conversations/' + localStorage.getItem('citecast.conversation'))"
            ".then(r => r.json()).then(d => d.turns[0].share_url)"
        )
        # the chat page, then the answer's own page (/turns/..., the same styles, no script)
        for where in ("chat", "turn page"):
            if where == "turn page":
                await page.goto(share_url)
            table = page.locator(".cc-body table")
            await expect(table).to_be_visible()
            assert await page.locator(".cc-body td").filter(has_text=WIDE_CELL).count() == 3
            assert await broken_one_word_cells(page) == [], where
            # the table scrolls, not the page
            width, scroll_width = await table.evaluate("t => [t.clientWidth, t.scrollWidth]")
            assert scroll_width > width, where
            page_widths = await page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            assert page_widths[0] <= page_widths[1], where
            await page.screenshot(path=str(artifact(f"chat-wide-table-{where[:4]}.png")))
    finally:
        await context.close()
        await running.stop()


async def test_a_reload_mid_answer_shows_the_answer_once_written(
    browser: Browser, tmp_path: Path
) -> None:
    answer = cited_answer(passage(1), passage(2), text=SLOW_TEXT)
    running = await serve_answerer(tmp_path, SlowAnswerer(answer, chunk=8, delay=0.06))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "Tell me slowly")
        await expect(page.locator(".cc-answer")).to_contain_text("Sentence 1", timeout=10_000)
        assert await page.locator(ANSWERED).count() == 0
        await page.reload()  # while the answer is being written
        writing = page.locator(".cc-answer .cc-typing")
        await expect(writing).to_have_text("This answer is still being written…")
        await expect(page.locator(".cc-status")).to_have_text("An answer is still being written…")
        # a question asked now would go without that answer in its history
        await expect(page.get_by_role("button", name="Ask")).to_be_disabled()
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await expect(page.get_by_role("button", name="Ask")).to_be_enabled()
        await expect(page.locator(f"{ANSWERED} .cc-body")).to_contain_text("Sentence 12")
        assert await page.locator(".cc-failed, [role=alert]").count() == 0
        await expect(page.locator(".cc-status")).to_have_text("The answer is ready.")
        # and it stays answered
        await page.reload()
        await expect(page.locator(f"{ANSWERED} .cc-body")).to_contain_text("Sentence 12")
    finally:
        await page.close()
        await running.stop()


async def test_waiting_for_an_answer_outlasts_a_server_that_drops_out(
    browser: Browser, tmp_path: Path
) -> None:
    # the polls after a reload fail for a while (a restarting proxy): the page keeps asking
    answer = cited_answer(passage(1), passage(2), text=SLOW_TEXT)
    running = await serve_answerer(tmp_path, SlowAnswerer(answer, chunk=8, delay=0.06))
    page = await browser.new_page()
    polls: list[str] = []

    async def flaky(route: Route) -> None:
        polls.append(route.request.url)
        if 2 <= len(polls) <= 3:  # the first call restores the conversation; then two fail
            await route.abort()
        else:
            await route.continue_()

    try:
        await page.goto(running.url + "/")
        await ask(page, "Tell me slowly")
        await expect(page.locator(".cc-answer")).to_contain_text("Sentence 1", timeout=10_000)
        await page.route("**/api/conversations/*", flaky)
        await page.reload()
        status = page.locator(".cc-status")
        await expect(status).to_have_text("Cannot reach the citecast server; trying again…")
        await expect(page.get_by_role("button", name="Ask")).to_be_disabled()
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await expect(page.locator(f"{ANSWERED} .cc-body")).to_contain_text("Sentence 12")
        await expect(status).to_have_text("The answer is ready.")
        await expect(page.get_by_role("button", name="Ask")).to_be_enabled()
        assert len(polls) >= 4
    finally:
        await page.close()
        await running.stop()


async def test_a_broken_stream_shows_the_answer_the_server_went_on_writing(
    browser: Browser, tmp_path: Path
) -> None:
    # a proxy cuts the stream after its first events; the server is up and stores the answer
    answer = cited_answer(passage(1), passage(2), text=SLOW_TEXT)
    running = await serve_answerer(tmp_path, CannedAnswerer(answer, chunk=8))
    page = await browser.new_page()

    async def cut(route: Route) -> None:
        response = await route.fetch()
        events = (await response.text()).split("\n\n")
        assert events[0].startswith("event: start")
        await route.fulfill(response=response, body="\n\n".join(events[:3]) + "\n\n")

    try:
        await page.route("**/api/ask/stream?*", cut)
        await page.goto(running.url + "/")
        await ask(page, "Tell me")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await expect(page.locator(f"{ANSWERED} .cc-body")).to_contain_text("Sentence 12")
        assert await page.locator(".cc-failed, [role=alert]").count() == 0
    finally:
        await page.close()
        await running.stop()


async def test_the_log_is_busy_while_an_answer_streams(browser: Browser, tmp_path: Path) -> None:
    # a screen reader reads the live region once the answer is complete, not each growing draft
    answer = cited_answer(passage(1), passage(2), text=SLOW_TEXT)
    running = await serve_answerer(tmp_path, SlowAnswerer(answer, chunk=8, delay=0.03))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        log = page.get_by_role("log", name="Conversation")
        await expect(log).to_have_attribute("aria-busy", "false")
        await page.evaluate(
            """() => {
              window.busyAtUpdate = [];
              const log = document.querySelector('.cc-log');
              new MutationObserver(() => window.busyAtUpdate.push(log.getAttribute('aria-busy')))
                .observe(document.querySelector('.cc-log'), {childList: true, subtree: true});
            }"""
        )
        await ask(page, "Tell me slowly")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await expect(log).to_have_attribute("aria-busy", "false")
        seen = await page.evaluate("window.busyAtUpdate")
        assert len(seen) > 10 and set(seen[:-1]) == {"true"}, seen
    finally:
        await page.close()
        await running.stop()


async def test_a_failed_answer_gives_the_question_back(browser: Browser, tmp_path: Path) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1)), fail=True))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "Will this work?")
        reason = page.locator(".cc-failed .cc-error")
        await expect(reason).to_have_text("the assistant failed to answer; try again")
        await expect(page.get_by_label("Your question")).to_have_value("Will this work?")
        # the reason is said once (by the log); the status line says what to do
        status = page.get_by_role("status")
        await expect(status).to_have_text(
            "Not answered; your question is back in the box to ask again."
        )
        assert await page.get_by_text("the assistant failed to answer; try again").count() == 1
    finally:
        await page.close()
        await running.stop()


async def test_a_question_over_the_limit_is_refused_never_cut(
    browser: Browser, tmp_path: Path
) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(
        tmp_path, answerer, max_question_chars=40, suggested_prompts=["Hello?"]
    )
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await expect(page.get_by_role("group", name="Try asking")).to_be_visible()  # config read
        box = page.get_by_label("Your question")
        await box.focus()
        pasted = "Why " + "is this so long " * 3 + "?"  # 53 characters
        await page.keyboard.insert_text(pasted)  # as a paste does
        await expect(box).to_have_value(pasted)
        await expect(box).to_have_attribute("aria-invalid", "true")
        await expect(page.locator(".cc-status")).to_have_text(
            "The question is 53 characters long; shorten it to 40 or fewer before asking."
        )
        await box.press("Enter")
        await expect(box).to_have_value(pasted)
        assert await page.locator(".cc-turn").count() == 0 and answerer.calls == []
        # shortened, it is asked
        await box.fill("Why is this so long?")
        await expect(box).to_have_attribute("aria-invalid", "false")
        await expect(page.locator(".cc-status")).to_have_text("")
        await box.press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        assert [call[0] for call in answerer.calls] == ["Why is this so long?"]
    finally:
        await page.close()
        await running.stop()


async def test_a_rate_limited_question_says_to_wait(browser: Browser, tmp_path: Path) -> None:
    # a proxy (or the server) refuses the stream with 429 before it starts
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    page = await browser.new_page()

    async def limited(route: Route) -> None:
        await route.fulfill(
            status=429, headers={"Retry-After": "30"}, json={"error": "too many questions"}
        )

    try:
        await page.route("**/api/ask/stream?*", limited)
        await page.goto(running.url + "/")
        await ask(page, "Am I too quick?")
        await expect(page.locator(".cc-failed .cc-error")).to_have_text(
            "Too many questions for now. Please wait 30 seconds before asking again."
        )
        await expect(page.get_by_label("Your question")).to_have_value("Am I too quick?")
        await expect(page.get_by_role("button", name="Ask")).to_be_enabled()
    finally:
        await page.close()
        await running.stop()


async def test_a_question_the_server_refuses_shows_the_servers_reason(
    browser: Browser, tmp_path: Path
) -> None:
    # the page did not learn the limit (its config request failed), so the server refuses
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, max_question_chars=40)
    page = await browser.new_page()
    try:
        await page.route("**/api/config", lambda route: route.abort())
        await page.goto(running.url + "/")
        question = "Why " + "is this so long " * 3 + "?"  # 53 characters
        await ask(page, question)
        await expect(page.locator(".cc-failed .cc-error")).to_have_text(
            "question is longer than 40 characters"
        )
        await expect(page.get_by_label("Your question")).to_have_value(question)
        assert answerer.calls == []
    finally:
        await page.close()
        await running.stop()


async def test_an_unknown_conversation_is_asked_again_in_a_new_one(
    browser: Browser, tmp_path: Path
) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer)
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "First question?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        first = await page.evaluate("localStorage.getItem('citecast.conversation')")
        # the store is reset while the page is open: the server forgets the conversation
        with sqlite3.connect(running.services.settings.store.path) as db:
            db.execute("DELETE FROM turns")
        db.close()
        await ask(page, "Second question?")
        await expect(page.locator(ANSWERED)).to_have_count(2, timeout=20_000)
        await expect(page.locator(".cc-note")).to_have_text(
            "The server no longer has the conversation above, so this question starts a new one."
        )
        assert await page.locator(".cc-failed, [role=alert]").count() == 0
        second = await page.evaluate("localStorage.getItem('citecast.conversation')")
        assert second and second != first
        # asked once, in the new conversation; the next question continues that one
        await ask(page, "Third question?")
        await expect(page.locator(ANSWERED)).to_have_count(3, timeout=20_000)
        assert [call[0] for call in answerer.calls] == [
            "First question?",
            "Second question?",
            "Third question?",
        ]
        await page.reload()
        await expect(page.locator(ANSWERED)).to_have_count(2, timeout=20_000)
        assert await page.locator(".cc-question").all_text_contents() == [
            "You asked: Second question?",
            "You asked: Third question?",
        ]
    finally:
        await page.close()
        await running.stop()
