"""The widget's close button in a short window (a phone on its side, a page zoomed in), in
headless Chromium: under 440 CSS px the header scrolls away with the conversation, and the ×,
which stays in view, must not be drawn over the text scrolling beneath it (found in a QA pass:
a bare × floated over the answer's lines)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.chromium import artifact
from tests.connectors.browser.widget_host import ANSWERED, ask_in_widget, long_answers_widget

# At each scroll position of the conversation: whether the header is gone, whether the × is
# what shows at its centre, and whether a line of the conversation's text lies under it; and
# the ×'s background colour (its alpha) and the panel's.
CLOSE = """() => {
  const root = document.querySelector('#citecast-widget').shadowRoot;
  const scroller = root.querySelector('.cc-root');
  const close = root.querySelector('.cc-close');
  const header = root.querySelector('.cc-header');
  const texts = [];
  const walk = document.createTreeWalker(root.querySelector('.cc-chat'), NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    if (walk.currentNode.textContent.trim() && !header.contains(walk.currentNode)) {
      texts.push(walk.currentNode);
    }
  }
  const overlaps = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const seen = [];
  for (let top = 0; top <= scroller.scrollHeight; top += 15) {
    scroller.scrollTop = top;
    const box = close.getBoundingClientRect();
    const hit = root.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    let under = false;
    for (const node of texts) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const line of range.getClientRects()) {
        if (overlaps(line, box)) under = true;
      }
    }
    seen.push({
      top: scroller.scrollTop,
      headerGone: header.getBoundingClientRect().bottom <= box.top,
      shown: hit === close || close.contains(hit),
      under: under,
    });
  }
  const colour = getComputedStyle(close).backgroundColor;
  return {
    seen: seen,
    background: colour,
    panel: getComputedStyle(root.querySelector('.cc-panel')).backgroundColor,
  };
}"""


def opaque(colour: str) -> bool:
    """Whether a computed ``rgb(…)`` / ``rgba(…)`` colour lets nothing show through."""
    if colour.startswith("rgba("):
        return float(colour.rstrip(")").split(",")[-1]) >= 1
    return colour.startswith("rgb(")


@pytest.mark.parametrize(("width", "height"), [(1000, 420), (320, 420)])
async def test_the_close_button_never_lies_on_the_text_of_a_short_window(
    browser: Browser, tmp_path: Path, width: int, height: int
) -> None:
    async with long_answers_widget(browser, tmp_path, width, height, steps=15) as page:
        panel = page.locator("#citecast-panel")
        await ask_in_widget(page, "How do I install it?")
        await expect(panel.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        found: dict[str, Any] = await page.evaluate(CLOSE)
        seen = found["seen"]
        # the × stays in view all the way down, the header scrolled away under 440 px
        assert all(step["shown"] for step in seen), seen
        assert any(step["headerGone"] for step in seen), seen
        # text does scroll beneath it: there the × is a card of the panel's colour over it
        assert any(step["headerGone"] and step["under"] for step in seen), seen
        assert opaque(found["background"]), found["background"]
        assert found["background"] == found["panel"]
        await panel.locator(".cc-root").evaluate("root => { root.scrollTop = 200; }")
        await page.screenshot(path=str(artifact(f"widget-close-short-{width}.png")))
        # and it still closes the chat
        await panel.get_by_role("button", name="Close the chat").click()
        await expect(panel).to_be_hidden()
