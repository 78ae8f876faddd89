"""Each marker of a citation shows its own quote and opens its own deep link, in Chromium.

An answer citing one passage for two sentences, each backed by another sentence of it
(``Citation.occurrences``): hovering the second ``[1]`` quotes the second sentence, not the
first, and following it highlights that sentence; a reload (the stored turn, rendered again)
shows the same (the page reads ``data-occurrence`` and the payload's ``occurrences``).
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect

from bot.grounding import verify
from bot.models import Answer, Citation
from tests.connectors.browser.conftest import ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer
from tests.grounding.two_claims import GUIDE, INVENTED, PIP, SQLITE

ANSWERED = ".cc-answer[aria-busy=false]"
WAIT = 20_000  # ms


def grounded(text: str) -> Answer:
    """``text`` citing GUIDE as [^1], checked as citecast checks every answer."""
    return verify(Answer(text=text, citations=(Citation(1, GUIDE, 1),)))


async def tooltip_of(page: Page, k: int) -> str:
    """The tooltip text shown while the k-th (1-based) citation of the answer is hovered."""
    number = page.locator(f"{ANSWERED} .cc-body sup a").nth(k - 1)
    await number.hover()
    tip = page.locator(f"[id='{await number.get_attribute('aria-describedby')}']")
    await expect(tip).to_be_visible()
    text = await tip.inner_text()
    await page.mouse.move(2, 2)
    await expect(tip).to_be_hidden()
    return text


async def test_each_marker_quotes_and_links_its_own_sentence(
    browser: Browser, tmp_path: Path
) -> None:
    answer = grounded(
        "Install it with pip install citecast [^1].\n\nThe index is a single SQLite file [^1]."
    )
    assert len(answer.citations[0].occurrences) == 2
    running = await serve_answerer(tmp_path, CannedAnswerer(answer, chunk=9))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "How is it installed, and where is the index?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=WAIT)
        for _ in range(2):  # the finished answer, then the stored turn after a reload
            numbers = page.locator(f"{ANSWERED} .cc-body sup a")
            await expect(numbers).to_have_count(2)
            first, second = await tooltip_of(page, 1), await tooltip_of(page, 2)
            assert PIP in first and SQLITE not in first, first
            assert SQLITE in second and PIP not in second, second
            href = await numbers.nth(1).get_attribute("href")
            assert href and href.startswith(f"{GUIDE.url}#:~:text=The%20index%20is"), href
            assert (await numbers.nth(0).get_attribute("href") or "").endswith(
                "#:~:text=Install%20citecast%20with%20pip%20install%20citecast."
            )
            # one source entry, quoting the citation's own (best-backed) sentence
            entries = page.locator(f"{ANSWERED} ol.sources > li")
            await expect(entries).to_have_count(1)
            await expect(entries.first).to_contain_text(PIP)
            await page.reload()
            await expect(page.locator(ANSWERED)).to_have_count(1, timeout=WAIT)
    finally:
        await page.close()
        await running.stop()


async def test_only_the_weak_marker_asks_for_a_check(browser: Browser, tmp_path: Path) -> None:
    answer = grounded(f"Install it with pip install citecast [^1]. {INVENTED} [^1].")
    running = await serve_answerer(tmp_path, CannedAnswerer(answer, chunk=9))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "How is it installed?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=WAIT)
        numbers = page.locator(f"{ANSWERED} .cc-body sup a")
        await expect(numbers).to_have_text(["[1]", "[1?]"])
        await expect(page.locator(f"{ANSWERED} .cc-body sup.weak")).to_have_count(1)
    finally:
        await page.close()
        await running.stop()
