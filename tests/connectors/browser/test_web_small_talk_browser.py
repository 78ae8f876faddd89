"""Small talk in the chat page, in real headless Chromium with the real extractive Assistant:
the reply to "Thanks!" is shown as a reply, not as a failed search. No "Answered without
sources." and no helpful / not helpful vote (nor copy and share) under it, also after a
reload; the answer before it keeps its vote."""

from __future__ import annotations

from playwright.async_api import Page, expect

from tests.connectors.browser.conftest import RunningCitecast, ask

ANSWERED = ".cc-answer[aria-busy=false]"


async def test_a_thank_you_gets_a_reply_without_vote_or_sources_note(
    page: Page, citecast: RunningCitecast
) -> None:
    await page.goto(citecast.url + "/")
    await ask(page, "How do I install citecast on Linux?")
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    question, thanks = page.locator(".cc-turn").nth(0), page.locator(".cc-turn").nth(1)
    await expect(question.locator(".cc-vote")).to_have_count(2)

    await ask(page, "Thanks!")
    await expect(page.locator(ANSWERED)).to_have_count(2, timeout=20_000)
    await expect(thanks.locator(".cc-body")).to_have_text("You're welcome!")
    await expect(page.locator(".cc-status")).to_have_text("")
    assert await thanks.locator(".cc-actions, .cc-vote, ol.sources").count() == 0
    await expect(question.locator(".cc-vote")).to_have_count(2)

    await page.reload()
    await expect(page.locator(ANSWERED)).to_have_count(2, timeout=20_000)
    await expect(thanks.locator(".cc-body")).to_have_text("You're welcome!")
    assert await thanks.locator(".cc-actions, .cc-vote").count() == 0
    await expect(question.locator(".cc-vote")).to_have_count(2)


async def test_a_question_without_sources_still_says_so(
    page: Page, citecast: RunningCitecast
) -> None:
    await page.goto(citecast.url + "/")
    await ask(page, "What is the capital of France?")
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    await expect(page.locator(".cc-status")).to_have_text("Answered without sources.")
    await expect(page.locator(f"{ANSWERED} .cc-vote")).to_have_count(2)
