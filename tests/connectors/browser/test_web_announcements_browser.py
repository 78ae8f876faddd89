"""What the web chat gives a screen reader to announce, and what it adds to the host page.

No screen reader runs here: these tests check the DOM that decides what one reads out (which
nodes are added to a live region, and when) in headless Chromium, and what forced colours
leave of the vote buttons and the highlighted source entry."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.connectors.browser.conftest import SlowAnswerer, ask, serve_answerer
from tests.connectors.browser.test_webjs_screen_reader_browser import live_regions_around
from tests.connectors.browser.widget_host import ANSWERED, ask_in_widget, host_site, open_widget
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage, start_live_server

SLOW_TEXT = " ".join(f"Sentence {i} of a slow answer.[^1]" for i in range(1, 13))

# The text of each node a screen reader is told is new in the conversation's log: nodes added
# to it, not inside a part that is not live (aria-live=off), and not inside another node
# added in the same batch (a subtree added whole is one addition). Installed before the
# page's own scripts run.
RECORD_LOG_ADDITIONS = """
window.logAdditions = [];
new MutationObserver((records) => {
  const added = [];
  for (const record of records) for (const node of record.addedNodes) added.push([record, node]);
  for (const [record, node] of added) {
    const target = record.target;
    if (!target.closest || !target.closest('[role=log]') || target.closest('[aria-live=off]')) {
      continue;
    }
    if (added.some(([, other]) => other !== node && other.contains(target))) continue;
    window.logAdditions.push(node.textContent);
  }
}).observe(document, {childList: true, subtree: true});
"""

# Each text added to the status line (role=status): each one is read out.
RECORD_STATUS = """
window.statusAdditions = [];
new MutationObserver((records) => {
  for (const record of records) {
    if (record.target.closest && record.target.closest('[role=status]')) {
      for (const node of record.addedNodes) window.statusAdditions.push(node.textContent);
    }
  }
}).observe(document, {childList: true, subtree: true});
"""


async def test_a_streamed_answer_is_added_to_the_live_log_once_when_it_is_done(
    browser: Browser, tmp_path: Path
) -> None:
    answerer = SlowAnswerer(cited_answer(passage(1), text=SLOW_TEXT), chunk=8, delay=0.05)
    running = await serve_answerer(tmp_path, answerer)
    context = await browser.new_context()
    try:
        await context.add_init_script(RECORD_LOG_ADDITIONS)
        page = await context.new_page()
        await page.goto(running.url + "/")
        await ask(page, "Slow question")
        # shown as it is written
        await expect(page.locator(".cc-pending")).to_contain_text("Sentence 2", timeout=10_000)
        assert await page.locator(ANSWERED).count() == 0
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        added = await page.evaluate("window.logAdditions")
        answers = [text for text in added if "Sentence 2 of a slow answer" in text]
        assert len(answers) == 1, answers
        assert "Sentence 12 of a slow answer" in answers[0]
        await expect(page.get_by_role("log", name="Conversation")).to_have_attribute(
            "aria-busy", "false"
        )
    finally:
        await context.close()
        await running.stop()


@asynccontextmanager
async def reloaded_while_written(browser: Browser, tmp_path: Path) -> AsyncIterator[Page]:
    """The chat page reloaded while a slow answer is still being written, recording what is
    added to its status region from then on (``window.statusAdditions``)."""
    answerer = SlowAnswerer(cited_answer(passage(1), text=SLOW_TEXT), chunk=8, delay=0.15)
    running = await serve_answerer(tmp_path, answerer)
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await ask(page, "Slow question")
        await expect(page.locator(".cc-pending p").first).to_be_visible(timeout=10_000)
        await context.add_init_script(RECORD_STATUS)
        await page.reload()
        yield page
    finally:
        await context.close()
        await running.stop()


async def test_an_answer_still_written_after_a_reload_is_announced_once(
    browser: Browser, tmp_path: Path
) -> None:
    async with reloaded_while_written(browser, tmp_path) as page:
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=30_000)
        added = await page.evaluate("window.statusAdditions")
        # polled every second: the unchanged text is not said again each time
        assert added.count("An answer is still being written…") == 1, added
        assert added[-1] == "The answer is ready.", added


async def test_a_server_out_of_reach_while_an_answer_is_written_is_said_once(
    browser: Browser, tmp_path: Path
) -> None:
    async with reloaded_while_written(browser, tmp_path) as page:
        await expect(page.locator(".cc-status")).to_have_text("An answer is still being written…")
        await page.route("**/api/conversations/**", lambda route: route.abort())
        await expect(page.locator(".cc-status")).to_have_text(
            "Cannot reach the citecast server; trying again…"
        )
        await page.wait_for_timeout(3_500)  # polled each second meanwhile
        added = await page.evaluate("window.statusAdditions")
        assert added.count("Cannot reach the citecast server; trying again…") == 1, added
        assert added.count("An answer is still being written…") == 1, added
        await page.unroute("**/api/conversations/**")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=30_000)
        await expect(page.locator(".cc-status")).to_have_text("The answer is ready.")


async def test_the_widget_adds_no_landmark_to_the_host_page_after_a_reload(
    browser: Browser, tmp_path: Path
) -> None:
    host = await start_live_server(host_site())
    running = await serve_answerer(
        tmp_path, CannedAnswerer(cited_answer(passage(1))), cors_origins=[host.url]
    )
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await open_widget(page, host, running.url)
        await ask_in_widget(page, "How do I install it?")
        await expect(page.locator(f"#citecast-panel {ANSWERED}")).to_have_count(1, timeout=20_000)
        await page.reload()
        await page.get_by_role("button", name="Ask citecast").click()
        await expect(page.locator(f"#citecast-panel .cc-earlier {ANSWERED}")).to_have_count(
            1, timeout=20_000
        )
        # README: the panel adds no landmark to the host page; a named <section> is one
        assert await page.get_by_role("region").count() == 0
        earlier = page.get_by_role("group", name="Earlier in this conversation")
        await expect(earlier.locator(ANSWERED)).to_have_count(1)
    finally:
        await context.close()
        await running.stop()
        await host.stop()


async def test_the_suggested_questions_are_not_in_the_live_log(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(
        tmp_path, CannedAnswerer(cited_answer(passage(1))), suggested_prompts=["Hello?"]
    )
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        prompts = page.get_by_role("group", name="Try asking")
        await expect(prompts).to_be_visible()
        # read out on every load if they were in a live region
        assert await live_regions_around(prompts) == []
        assert await live_regions_around(page.locator(".cc-empty")) == []
        await prompts.get_by_role("button", name="Hello?").click()
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await expect(page.locator(".cc-empty")).to_have_count(0)
        # "New conversation" shows them again, still outside the log
        await page.get_by_role("button", name="New conversation").click()
        await expect(prompts).to_be_visible()
        assert await live_regions_around(prompts) == []
        await expect(page.get_by_role("log", name="Conversation")).to_be_empty()
    finally:
        await page.close()
        await running.stop()


async def test_a_question_over_the_limit_is_said_on_crossing_it_not_on_each_key(
    browser: Browser, tmp_path: Path
) -> None:
    running = await serve_answerer(
        tmp_path,
        CannedAnswerer(cited_answer(passage(1))),
        max_question_chars=40,
        suggested_prompts=["Hello?"],
    )
    context = await browser.new_context()
    try:
        await context.add_init_script(RECORD_STATUS)
        page = await context.new_page()
        await page.goto(running.url + "/")
        await expect(page.get_by_role("group", name="Try asking")).to_be_visible()  # config read
        box = page.get_by_label("Your question")
        await box.press_sequentially("Why " + "is this so long " * 3)  # 52 characters
        await expect(box).to_have_attribute("aria-invalid", "true")
        await box.press_sequentially("???")
        await expect(box).to_have_value("Why " + "is this so long " * 3 + "???")
        over = [t for t in await page.evaluate("window.statusAdditions") if "long" in t]
        assert over == [
            "The question is 41 characters long; shorten it to 40 or fewer before asking."
        ], over
        # asking says it again, with the count as it is then
        await box.press("Enter")
        await expect(page.locator(".cc-status")).to_have_text(
            "The question is 55 characters long; shorten it to 40 or fewer before asking."
        )
        # back under the limit and over it again: said again
        await box.fill("Short?")
        await expect(box).to_have_attribute("aria-invalid", "false")
        await expect(page.locator(".cc-status")).to_have_text("")
        await box.fill("x" * 45)
        await expect(page.locator(".cc-status")).to_have_text(
            "The question is 45 characters long; shorten it to 40 or fewer before asking."
        )
    finally:
        await context.close()
        await running.stop()


async def system_colour(page: Page, colour: str) -> str:
    """The computed value of the system colour ``colour`` (Highlight, GrayText) here."""
    value: str = await page.evaluate(
        """(colour) => {
          const probe = document.createElement('div');
          probe.style.cssText = 'forced-color-adjust: none; color: ' + colour;
          document.body.appendChild(probe);
          const value = getComputedStyle(probe).color;
          probe.remove();
          return value;
        }""",
        colour,
    )
    return value


async def test_forced_colours_keep_the_pressed_vote_and_the_shown_source_apart(
    browser: Browser, tmp_path: Path
) -> None:
    answer = cited_answer(passage(1), passage(2, url=None))  # the second one: a record
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    page = await browser.new_page()
    try:
        await page.emulate_media(forced_colors="active")
        await page.goto(running.url + "/")
        await ask(page, "How do I set it up?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        highlight = await system_colour(page, "Highlight")
        gray = await system_colour(page, "GrayText")
        votes = page.get_by_role("group", name="Was this helpful?")
        helpful = votes.get_by_role("button", name="Helpful", exact=True)
        other = votes.get_by_role("button", name="Not helpful")
        await helpful.click()
        await expect(helpful).to_have_attribute("aria-pressed", "true")
        await expect(other).to_have_attribute("aria-disabled", "true")
        assert await helpful.evaluate("b => getComputedStyle(b).backgroundColor") == highlight
        assert await other.evaluate("b => getComputedStyle(b).color") == gray
        # a record's citation shows its source list entry, marked by more than a background
        await page.locator(f"{ANSWERED} .cc-body sup a").nth(1).click()
        entry = page.locator(f"{ANSWERED} ol.sources > li").nth(1)
        await expect(entry).to_have_class("cc-target")
        await page.get_by_label("Your question").focus()  # the mark, not a focus ring
        outline = await entry.evaluate(
            "li => [getComputedStyle(li).outlineStyle, getComputedStyle(li).outlineColor]"
        )
        assert outline == ["solid", highlight], outline
    finally:
        await page.close()
        await running.stop()
