"""What a screen reader is given to announce in the chat page, in headless Chromium.

No screen reader runs here, so these tests check the DOM that decides what one reads out: which
live regions (``role=log``, ``role=alert``, ``aria-live``) hold a node, and whether the log is
``aria-busy``. A reload must not put the stored conversation in the live log (it would be read
aloud again), and a failed answer's reason must sit in one live region only (an alert inside the
log is read twice)."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Locator, expect

from tests.connectors.browser.conftest import SlowAnswerer, ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
LIVE = "[role=log], [role=status], [role=alert], [aria-live=polite], [aria-live=assertive]"
FAILED_REASON = "the assistant failed to answer; try again"
SLOW_TEXT = " ".join(f"Sentence {i} of a slow answer.[^1]" for i in range(1, 13))

# Every node added inside a live region of the chat, with the region's role and whether it was
# busy: what a screen reader is told to read. Installed before the page's own scripts run.
RECORD_LIVE_ADDITIONS = """
window.liveAdditions = [];
new MutationObserver((records) => {
  for (const record of records) {
    const region = record.target.closest && record.target.closest('__LIVE__');
    for (const node of record.addedNodes) {
      if (region && node.nodeType === 1 && node.closest('.cc-chat')) {
        window.liveAdditions.push([region.getAttribute('role'), node.className,
                                   region.getAttribute('aria-busy'), node.textContent]);
      }
    }
  }
}).observe(document, {childList: true, subtree: true});
""".replace("__LIVE__", LIVE)


async def live_regions_around(node: Locator) -> list[str]:
    """The role (or aria-live) of each live region that holds ``node``, innermost first."""
    regions: list[str] = await node.evaluate(
        """(node, live) => {
          const found = [];
          for (let n = node.closest(live); n; n = n.parentElement?.closest(live)) {
            found.push(n.getAttribute('role') || n.getAttribute('aria-live'));
          }
          return found;
        }""",
        LIVE,
    )
    return regions


async def test_a_reload_shows_the_stored_turns_outside_the_live_log(
    browser: Browser, tmp_path: Path
) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1)))
    running = await serve_answerer(tmp_path, answerer)
    context = await browser.new_context()
    page = await context.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "First question")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        answerer.fail = True
        await ask(page, "Second question")
        await expect(page.locator(".cc-failed")).to_have_count(1, timeout=20_000)
        await page.get_by_label("Your question").fill("")

        await context.add_init_script(RECORD_LIVE_ADDITIONS)
        await page.reload()
        await expect(page.locator(ANSWERED)).to_have_count(2, timeout=10_000)  # one failed
        await expect(page.locator(".cc-failed .cc-error")).to_have_text(
            "This question was not answered (the server stopped or failed)."
        )
        await expect(page.get_by_role("button", name="Ask")).to_be_enabled()
        # nothing of the stored conversation was added to a live region while it loaded
        added = await page.evaluate("window.liveAdditions")
        assert [a for a in added if "cc-turn" in a[1] or "cc-error" in a[1]] == [], added
        for turn in await page.locator(".cc-turn").all():
            assert await live_regions_around(turn) == []
        assert await page.get_by_role("alert").count() == 0
        # both turns are shown, in order, in a region of their own
        earlier = page.get_by_role("region", name="Earlier in this conversation")
        await expect(earlier.locator(".cc-question span:not(.cc-sr)")).to_have_text(
            ["First question", "Second question"]
        )
        log = page.get_by_role("log", name="Conversation")
        await expect(log).to_have_attribute("aria-busy", "false")

        # a new question goes in the live log, after the stored ones
        answerer.fail = False
        await ask(page, "Third question")
        await expect(page.locator(ANSWERED)).to_have_count(3, timeout=20_000)
        await expect(log.locator(".cc-question span:not(.cc-sr)")).to_have_text(["Third question"])
        questions = await page.locator(".cc-question span:not(.cc-sr)").all_inner_texts()
        assert questions == ["First question", "Second question", "Third question"]
        # "New conversation" clears both
        await page.get_by_role("button", name="New conversation").click()
        assert await page.locator(".cc-turn").count() == 0
        await expect(earlier).to_be_hidden()
    finally:
        await context.close()
        await running.stop()


async def test_a_failed_answers_reason_is_in_one_live_region(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1)), fail=True))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "Will this work?")
        reason = page.locator(".cc-failed .cc-error")
        await expect(reason).to_have_text(FAILED_REASON)
        # read by the log it is added to, once: not an alert (a live region) inside the log
        assert await live_regions_around(reason) == ["log"]
        assert await page.get_by_role("alert").count() == 0
        await expect(page.get_by_role("log", name="Conversation")).to_have_attribute(
            "aria-busy", "false"
        )
        await expect(page.get_by_role("status")).to_have_text(
            "Not answered; your question is back in the box to ask again."
        )
    finally:
        await page.close()
        await running.stop()


async def test_an_answer_still_written_at_a_reload_waits_in_the_busy_log(
    browser: Browser, tmp_path: Path
) -> None:
    # the answered turn is not read out again; the one being written is read once it arrives
    answerer = SlowAnswerer(cited_answer(passage(1), text=SLOW_TEXT), chunk=8, delay=0.0)
    running = await serve_answerer(tmp_path, answerer)
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "Quick question")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        answerer.delay = 0.06
        await ask(page, "Slow question")
        await expect(page.locator(".cc-answer").nth(1)).to_contain_text(
            "Sentence 1", timeout=10_000
        )
        await page.reload()
        log = page.get_by_role("log", name="Conversation")
        earlier = page.get_by_role("region", name="Earlier in this conversation")
        await expect(log.locator(".cc-typing")).to_have_text("This answer is still being written…")
        await expect(log).to_have_attribute("aria-busy", "true")
        await expect(earlier.locator(".cc-question span:not(.cc-sr)")).to_have_text(
            ["Quick question"]
        )
        await expect(log.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await expect(log.locator(".cc-question span:not(.cc-sr)")).to_have_text(["Slow question"])
        await expect(log).to_have_attribute("aria-busy", "false")
        await expect(page.locator(".cc-status")).to_have_text("The answer is ready.")
    finally:
        await page.close()
        await running.stop()
