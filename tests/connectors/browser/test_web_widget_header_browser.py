"""The widget's header while a long answer scrolls its panel, in headless Chromium: the title and
"New conversation" stay in view, not scrolled away or cut off, and the answer starts below them,
at desktop sizes and at 320 CSS px wide."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.chromium import artifact
from tests.connectors.browser.widget_host import ANSWERED, ask_in_widget, long_answers_widget

# Where the header and its controls are, and whether each is what the panel shows at its
# centre (not covered by the conversation scrolled under it, nor clipped away).
HEADER = """() => {
  const root = document.querySelector('#citecast-widget').shadowRoot;
  const box = node => node.getBoundingClientRect().toJSON();
  const shown = node => {
    const r = node.getBoundingClientRect();
    const hit = root.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && (hit === node || node.contains(hit));
  };
  const header = root.querySelector('.cc-header');
  const controls = ['.cc-title', '.cc-subtitle', '.cc-header .cc-secondary', '.cc-close'];
  const turns = root.querySelectorAll('.cc-turn');
  return {
    scrolled: root.querySelector('.cc-root').scrollTop,
    panel: box(root.querySelector('.cc-panel')),
    header: box(header),
    newest: box(turns[turns.length - 1]),
    hidden: controls.filter(sel => !shown(root.querySelector(sel))),
  };
}"""


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    """Whether the box ``inner`` lies within the box ``outer``."""
    return (
        outer["left"] <= inner["left"]
        and inner["right"] <= outer["right"]
        and outer["top"] <= inner["top"]
        and inner["bottom"] <= outer["bottom"]
    )


async def header_in_view(page: Page) -> dict[str, Any]:
    """Where the header is; asserts it is in the panel, its title and controls showing."""
    seen: dict[str, Any] = await page.evaluate(HEADER)
    assert inside(seen["header"], seen["panel"]), seen
    # at the very top (within the panel's 1px border): nothing scrolls by above it
    assert seen["header"]["top"] - seen["panel"]["top"] <= 1.5, seen
    assert seen["hidden"] == [], seen
    return seen


@pytest.mark.parametrize(("width", "height"), [(1000, 760), (320, 640)])
async def test_the_header_stays_in_view_when_a_long_answer_scrolls_the_panel(
    browser: Browser, tmp_path: Path, width: int, height: int
) -> None:
    async with long_answers_widget(browser, tmp_path, width, height, steps=30) as page:
        panel = page.locator("#citecast-panel")
        for asked in (1, 2):
            await ask_in_widget(page, f"How do I install it? ({asked})")
            await expect(panel.locator(ANSWERED)).to_have_count(asked, timeout=20_000)
        seen = await header_in_view(page)
        assert seen["scrolled"] > 0, seen  # the answers made the panel scroll
        # the newest question was brought into view below the header, not under it
        assert seen["newest"]["top"] >= seen["header"]["bottom"], seen
        await page.screenshot(path=str(artifact(f"widget-header-{width}.png")))
        # read on to the end of the answer: the header is still there, and works
        await panel.locator(".cc-root").evaluate("root => { root.scrollTop = root.scrollHeight; }")
        await header_in_view(page)
        await panel.get_by_role("button", name="New conversation").click()
        await expect(panel.locator(".cc-status")).to_have_text("Started a new conversation.")
        await expect(panel.locator(".cc-turn")).to_have_count(0)
