"""The share link in real headless Chromium: each answer's "Copy link" gives the address of its
own page (``share_url``), which shows the answer and its sources to whoever opens it."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"


async def test_copy_link_gives_the_answers_own_page_also_after_a_reload(
    browser: Browser, tmp_path: Path
) -> None:
    text = "Claim one is true.[^1]\n\nClaim two is true.[^2]\n"
    running = await serve_answerer(
        tmp_path, CannedAnswerer(cited_answer(passage(1), passage(2), text=text))
    )
    context = await browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await page.get_by_label("Your question").fill("Is it true?")
        await page.get_by_label("Your question").press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        share = page.get_by_role("button", name="Copy link to this answer")
        await share.focus()
        await page.keyboard.press("Enter")
        await expect(page.locator(".cc-status")).to_have_text(
            "Link to this answer copied to the clipboard."
        )
        await expect(share).to_be_focused()
        copied = await page.evaluate("navigator.clipboard.readText()")
        assert copied.startswith(running.url + "/turns/"), copied

        # the reloaded conversation offers the same link
        await page.reload()
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await page.get_by_role("button", name="Copy link to this answer").click()
        await expect(page.locator(".cc-status")).to_have_text(
            "Link to this answer copied to the clipboard."
        )
        assert await page.evaluate("navigator.clipboard.readText()") == copied

        # someone else opening it sees the answer and its sources, not the question
        other = await (await browser.new_context()).new_page()
        await other.goto(copied)
        await expect(other.locator(".cc-body p").first).to_contain_text("Claim one is true.")
        await expect(other.locator("ol.sources > li")).to_have_count(2)
        assert "Is it true?" not in await other.content()
        await other.context.close()
    finally:
        await context.close()
        await running.stop()
