"""The widget's answers always have room, in headless Chromium (WCAG 1.4.10): in a window a
little taller than the 440px breakpoint (960 x 470, a 320 x 500 phone) the sticky header and
question box left the conversation a slot of 52-68px (found in a QA pass); now they scroll with
it whenever they would leave less than 200px, and in a tall window they still stay in view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.chromium import artifact
from tests.connectors.browser.widget_host import ANSWERED, ask_in_widget, long_answers_widget

# The most of the answer card seen at once, in px, over every scroll position of the
# conversation: rows of the card where the point at its middle shows the card itself (not the
# header or the question box over it, nor anything past the panel's edges); and the header's
# and the question box's position.
SEEN = """() => {
  const root = document.querySelector('#citecast-widget').shadowRoot;
  const scroller = root.querySelector('.cc-root');
  const answer = root.querySelector('.cc-answer');
  let most = 0;
  for (let top = 0; top <= scroller.scrollHeight; top += 10) {
    scroller.scrollTop = top;
    const box = answer.getBoundingClientRect();
    const x = box.left + box.width / 2;
    let seen = 0;
    for (let y = Math.max(0, Math.ceil(box.top)); y < Math.min(box.bottom, innerHeight); y += 2) {
      const hit = root.elementFromPoint(x, y);
      if (hit && answer.contains(hit)) seen += 2;
    }
    most = Math.max(most, seen);
  }
  const position = (selector) => getComputedStyle(root.querySelector(selector)).position;
  return {most: most, header: position('.cc-header'), form: position('.cc-form')};
}"""


@pytest.mark.parametrize(("width", "height"), [(960, 470), (320, 500)])
async def test_a_short_panel_leaves_the_answer_room(
    browser: Browser, tmp_path: Path, width: int, height: int
) -> None:
    async with long_answers_widget(browser, tmp_path, width, height, steps=15) as page:
        panel = page.locator("#citecast-panel")
        await ask_in_widget(page, "How do I install it?")
        await expect(panel.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        found: dict[str, Any] = await page.evaluate(SEEN)
        await page.screenshot(path=str(artifact(f"widget-room-{width}x{height}.png")))
        assert found["most"] >= 150, found
        # the header and the box scroll with the conversation there
        assert (found["header"], found["form"]) == ("static", "static"), found


async def test_a_tall_panel_keeps_its_header_and_question_box_in_view(
    browser: Browser, tmp_path: Path
) -> None:
    async with long_answers_widget(browser, tmp_path, 1000, 760, steps=15) as page:
        panel = page.locator("#citecast-panel")
        await ask_in_widget(page, "How do I install it?")
        await expect(panel.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        found: dict[str, Any] = await page.evaluate(SEEN)
        assert (found["header"], found["form"]) == ("sticky", "sticky"), found
        assert found["most"] >= 200, found
