"""The chat page in headless Chromium: record citations, quotes and scrolling.

The real app and the real extractive Assistant over the sample knowledge base, with the
``products`` record table of config.yaml, so "What does the Team plan cost?" cites a record
(a source with no URL and no file: its citation is an in-page link to the source list).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from bot.config import Settings
from bot.config_file import parse_settings
from tests.chromium import artifact
from tests.connectors.browser.conftest import EXAMPLES, RunningCitecast, serve_citecast

ANSWERED = ".cc-answer[aria-busy=false]"
RECORD_QUESTION = "What does the Team plan cost?"
INSTALL_QUESTION = "How do I install citecast on Linux?"
BACKUP_QUESTION = "How do I back up citecast?"
PRODUCTS = {
    "name": "products",
    "csv": str(EXAMPLES / "products.csv"),
    "id_column": "sku",
    "label_template": "{name} ({sku})",
    "columns": ["tier", "price_usd", "seats", "support"],
    "action_url_template": "https://example.com/citecast/pricing/{sku}",
    "action_label": "See plan",
}


def settings_with_records(tmp_path: Path) -> Settings:
    return parse_settings(
        {
            "index": {"path": str(tmp_path / "index.db"), "records": [PRODUCTS]},
            "store": {"path": str(tmp_path / "store.db")},
            "web": {"file_secret": "browser-test-secret-0123456789"},
        }
    )


@pytest.fixture
async def citecast(tmp_path: Path) -> AsyncIterator[RunningCitecast]:
    running = await serve_citecast(settings_with_records(tmp_path))
    yield running
    await running.live.stop()
    running.services.store.close()


async def ask_and_wait(page: Page, question: str, answered: int) -> None:
    await page.get_by_label("Your question").fill(question)
    await page.get_by_label("Your question").press("Enter")
    await expect(page.locator(ANSWERED)).to_have_count(answered, timeout=20_000)


async def test_record_citation_stays_in_page_and_names_the_record(
    browser: Browser, citecast: RunningCitecast
) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    await page.goto(citecast.url + "/")
    await ask_and_wait(page, RECORD_QUESTION, 1)
    link = page.locator(f"{ANSWERED} .cc-body sup a").first
    await expect(link).to_have_text("[1]")

    # An in-page anchor stays in-page: no new tab, a fragment href.
    assert await link.get_attribute("target") is None
    href = await link.get_attribute("href")
    assert href and href.startswith("#cite-"), href
    assert await link.get_attribute("aria-label") == "Source 1: citecast Team (CC-TEAM)"

    # The tooltip names the record by its label, never its internal id.
    await link.hover()
    tip = page.locator(f"[id='{await link.get_attribute('aria-describedby')}']")
    await expect(tip).to_be_visible()
    await expect(tip.locator(".cc-tip-title")).to_have_text("citecast Team (CC-TEAM)")
    assert "products/CC-TEAM" not in await tip.inner_text()

    # Clicking moves focus to the source list entry, visible above the question box.
    await link.click()
    entry = page.locator(f"{ANSWERED} li[id='{href[1:]}']")
    await expect(entry).to_be_focused()
    assert len(context.pages) == 1
    assert page.url.rstrip("/") == citecast.url
    box = await entry.bounding_box()
    composer = await page.locator(".cc-form").bounding_box()
    assert box and composer and box["y"] >= 0 and box["y"] + box["height"] <= composer["y"] + 1
    await context.close()


async def test_quotes_show_no_markdown_backticks(
    browser: Browser, citecast: RunningCitecast
) -> None:
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await page.goto(citecast.url + "/")
    await ask_and_wait(page, INSTALL_QUESTION, 1)
    answer = page.locator(ANSWERED)
    # The quotes cite `python3-venv` and `pip install citecast`: code styling, no backticks,
    # in the tooltips (hidden until hover, so textContent) and in the source list.
    text = await answer.evaluate("node => node.textContent")
    assert "`" not in text, text
    assert await answer.locator("ol.sources .quote code").count() > 0
    assert await answer.locator(".cc-tooltip .cc-tip-quote code").count() > 0
    first = answer.locator(".cc-body sup a").first
    await first.hover()
    tip = page.locator(f"[id='{await first.get_attribute('aria-describedby')}']")
    await expect(tip).to_be_visible()
    assert "`" not in await tip.inner_text()
    await page.close()


# The newest turn, placed for reading: when it fits above the sticky question box it ends above
# it; a taller one starts at the top (its question on screen, the answer read by scrolling).
NEWEST_TURN_PLACEMENT = """() => {
  const turns = document.querySelectorAll('.cc-turn');
  const turn = turns[turns.length - 1].getBoundingClientRect();
  const answer = turns[turns.length - 1].querySelector('.cc-answer').getBoundingClientRect();
  const formTop = document.querySelector('.cc-form').getBoundingClientRect().top;
  const fits = turn.height <= formTop - 16;
  const ok = fits ? turn.top >= 0 && answer.bottom <= formTop + 1
                  : turn.top >= 0 && turn.top <= 16 && answer.top < formTop;
  return {ok, fits, turnTop: turn.top, turnHeight: turn.height, answerBottom: answer.bottom,
          formTop};
}"""

WATCH_PLACEMENT = (
    """() => {
  const placement = """
    + NEWEST_TURN_PLACEMENT
    + """;
  window.__ccMisplaced = [];
  const check = () => {
    if (!document.querySelector('.cc-turn')) return;
    const seen = placement();
    if (!seen.ok) window.__ccMisplaced.push(seen);
  };
  new MutationObserver(check).observe(document.querySelector('.cc-log'),
    { childList: true, subtree: true, characterData: true, attributes: true });
}"""
)


@pytest.mark.parametrize("size", [(1280, 800), (375, 740)], ids=["desktop", "phone"])
async def test_newest_answer_stays_above_the_composer(
    browser: Browser, citecast: RunningCitecast, size: tuple[int, int]
) -> None:
    width, height = size
    page = await browser.new_page(viewport={"width": width, "height": height})
    await page.goto(citecast.url + "/")
    await expect(page.get_by_role("heading", name="citecast")).to_be_visible()
    await page.evaluate(WATCH_PLACEMENT)
    questions = [INSTALL_QUESTION, RECORD_QUESTION, BACKUP_QUESTION]
    for count, question in enumerate(questions, 1):
        await ask_and_wait(page, question, count)
        placement: dict[str, Any] = await page.evaluate(NEWEST_TURN_PLACEMENT)
        assert placement["ok"], (question, placement)
    # While the answers streamed in, the newest one never slid under the question box.
    assert await page.evaluate("window.__ccMisplaced") == []
    await page.screenshot(path=str(artifact(f"chat-three-questions-{width}x{height}.png")))
    await page.close()
