"""The chat page in headless Chromium when a question cannot be asked or answered right now:
the server's own rate limit, a stream cut off whose answer the server then failed to write, and
a question sent while an answer is still streaming."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import Browser, Route, expect

from tests.connectors.browser.conftest import SlowAnswerer, ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

RETRY_STATUS = "Not answered; your question is back in the box to ask again."


async def test_the_servers_own_rate_limit_names_the_wait_once(
    browser: Browser, tmp_path: Path
) -> None:
    # citecast's 429 says "too many questions; try again in 60 s" and sends Retry-After: the
    # chat says how long to wait in one sentence, not the server's reason and then its own
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer, rate_limit_per_minute=1)
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "First question?")
        await expect(page.locator(".cc-answer[aria-busy=false]")).to_have_count(1)
        await ask(page, "Second question?")
        reason = page.locator(".cc-failed .cc-error")
        await expect(reason).to_have_text(
            re.compile(r"^Too many questions for now\. Please wait \d+ seconds? before asking")
        )
        said = await reason.text_content() or ""
        assert re.fullmatch(
            r"Too many questions for now\. Please wait \d+ seconds? before asking again\.", said
        ), said
        await expect(page.get_by_label("Your question")).to_have_value("Second question?")
        assert len(answerer.calls) == 1
    finally:
        await page.close()
        await running.stop()


async def test_a_cut_stream_whose_answer_then_failed_gives_the_question_back(
    browser: Browser, tmp_path: Path
) -> None:
    # the connection drops right after `start`; the server is up, but the answer it went on
    # writing failed: the page says so and the question is ready to ask again
    answerer = CannedAnswerer(cited_answer(passage(1)), fail=True)
    running = await serve_answerer(tmp_path, answerer)
    page = await browser.new_page()

    async def cut(route: Route) -> None:
        response = await route.fetch()
        events = (await response.text()).split("\n\n")
        assert events[0].startswith("event: start") and "event: error" in events[1]
        await route.fulfill(response=response, body=events[0] + "\n\n")

    try:
        await page.route("**/api/ask/stream?*", cut)
        await page.goto(running.url + "/")
        await ask(page, "Will this survive a drop?")
        reason = page.locator(".cc-failed .cc-error")
        await expect(reason).to_have_text(
            "This question was not answered (the server stopped or failed).", timeout=20_000
        )
        await expect(page.get_by_label("Your question")).to_have_value("Will this survive a drop?")
        await expect(page.get_by_role("status")).to_have_text(RETRY_STATUS)
        await expect(page.get_by_role("button", name="Ask")).to_be_enabled()
    finally:
        await page.close()
        await running.stop()


async def test_enter_while_an_answer_streams_says_why_nothing_was_sent(
    browser: Browser, tmp_path: Path
) -> None:
    text = " ".join(f"Sentence {i} of a slow answer.[^1]" for i in range(1, 13))
    answerer = SlowAnswerer(cited_answer(passage(1), text=text), chunk=8, delay=0.05)
    running = await serve_answerer(tmp_path, answerer)
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "Tell me slowly")
        await expect(page.locator(".cc-answer")).to_contain_text("Sentence 1", timeout=10_000)
        await ask(page, "And then?")  # the Ask button is disabled, but Enter works anywhere
        status = page.get_by_role("status")
        await expect(status).to_have_text(
            "Not sent yet: wait until the chat is ready, then ask again. "
            "Your question stays in the box."
        )
        await expect(page.get_by_label("Your question")).to_have_value("And then?")
        await expect(page.locator(".cc-answer[aria-busy=false]")).to_have_count(1, timeout=20_000)
        await expect(status).to_have_text("Answered with 1 source.")
        await expect(page.get_by_label("Your question")).to_have_value("And then?")
        assert [call[0] for call in answerer.calls] == ["Tell me slowly"]
    finally:
        await page.close()
        await running.stop()
