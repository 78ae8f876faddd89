"""What a screen reader is told of the question box's errors, and the name of "Copy link" while
it says "Link copied", in headless Chromium (found in a QA pass).

- A question that is too long, or empty when asked, marks the box invalid, and the box's
  description then includes the status line that says why (WCAG 3.3.1), not only its hint;
  once it is fixed, the description is the hint again.
- "Copy link" is named "Copy link to this answer"; while its text says "Link copied", its name
  says so too (WCAG 2.5.3: a voice user says what they see).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, expect

from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
HINT = "Enter to ask, Shift+Enter for a new line."
TOO_LONG = "The question is 53 characters long; shorten it to 40 or fewer before asking."


async def test_the_boxs_errors_are_its_description_while_they_last(
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
        await expect(box).to_have_accessible_description(HINT)
        # empty, asked
        await box.press("Enter")
        await expect(page.locator(".cc-status")).to_have_text("Type a question first.")
        await expect(box).to_have_attribute("aria-invalid", "true")
        await expect(box).to_have_accessible_description(f"{HINT} Type a question first.")
        await box.press_sequentially("Why")
        await expect(box).to_have_attribute("aria-invalid", "false")
        await expect(box).to_have_accessible_description(HINT)
        # too long
        await box.fill("")
        await page.keyboard.insert_text("Why " + "is this so long " * 3 + "?")  # 53 characters
        await expect(box).to_have_attribute("aria-invalid", "true")
        await expect(box).to_have_accessible_description(f"{HINT} {TOO_LONG}")
        await box.fill("Why is this so long?")
        await expect(box).to_have_attribute("aria-invalid", "false")
        await expect(box).to_have_accessible_description(HINT)
    finally:
        await page.close()
        await running.stop()


# Record the share button's text and aria-label at each change, as the page has them.
WATCH = """button => {
  window.seen = [];
  const note = () => window.seen.push(
    {text: button.textContent, label: button.getAttribute('aria-label')});
  new MutationObserver(note).observe(
    button, {childList: true, characterData: true, subtree: true, attributes: true});
}"""


async def test_copy_link_is_named_as_its_text_says(browser: Browser, tmp_path: Path) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    context = await browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await page.get_by_label("Your question").fill("Is it true?")
        await page.get_by_label("Your question").press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        share = page.get_by_role("button", name="Copy link to this answer")
        await share.evaluate(WATCH)
        await share.click()
        await expect(page.locator(".cc-status")).to_have_text(
            "Link to this answer copied to the clipboard."
        )
        # back to "Copy link" after a moment
        await expect(page.locator(".cc-share")).to_have_text("Copy link", timeout=10_000)
        await expect(share).to_have_accessible_name("Copy link to this answer")
        seen: list[dict[str, Any]] = await page.evaluate("window.seen")
        assert any(state["text"] == "Link copied" for state in seen), seen
        for state in seen:
            name = state["label"] if state["label"] is not None else state["text"]
            assert re.search(re.escape(state["text"]), name, re.IGNORECASE), seen
    finally:
        await context.close()
        await running.stop()
