"""The preview page reflows to one column at 320 CSS px (WCAG 1.4.10): no sideways scrolling,
and nothing a panel draws is cut off at its edge.

Found in an accessibility pass: each column was at least 430px wide, so at 320px the page
scrolled sideways (scrollWidth 454) and every panel ran past the window's edge.
"""

from __future__ import annotations

from pathlib import Path

from renderers.preview import preview_page
from renderers.sample import sample_answer
from tests.chromium import launch_chromium

# per panel: how wide it is, and what inside it reaches past its right edge (it clips)
PANELS = """
() => [...document.querySelectorAll('.panel')].map((panel) => {
  const edge = panel.getBoundingClientRect().right;
  const past = [...panel.querySelectorAll('*')]
    .filter((e) => e.getBoundingClientRect().right > edge + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
  return {channel: panel.dataset.channel, right: edge, past};
})
"""


async def test_the_preview_fits_a_320px_window(tmp_path: Path) -> None:
    page_file = tmp_path / "preview.html"
    page_file.write_text(preview_page(sample_answer()), encoding="utf-8")
    async with launch_chromium() as browser:
        page = await browser.new_page(viewport={"width": 320, "height": 800})
        await page.goto(page_file.as_uri())
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, width
        panels = await page.evaluate(PANELS)
        assert [panel["channel"] for panel in panels] == [
            "slack", "discord", "email", "discourse", "web"
        ]  # fmt: skip
        for panel in panels:
            assert panel["right"] <= 320 and panel["past"] == [], panel
        # the email's HTML part (a shadow root of its own) wraps within its box too
        email = page.locator('[aria-label="Email HTML part"]')
        overflow = await email.evaluate("(box) => box.scrollWidth - box.clientWidth")
        assert overflow <= 0, overflow
