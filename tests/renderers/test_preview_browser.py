"""The preview page in headless Chromium: five visible panels, screenshot for a human."""

from __future__ import annotations

from pathlib import Path

from renderers import CHANNELS
from renderers.preview import preview_page
from renderers.sample import sample_answer
from tests.chromium import artifact, launch_chromium


async def test_preview_shows_five_channels_side_by_side(tmp_path: Path) -> None:
    page_file = tmp_path / "preview.html"
    page_file.write_text(preview_page(sample_answer()), encoding="utf-8")
    shot = artifact("preview.png")
    async with launch_chromium() as browser:
        # Tall enough that the whole page is painted before the full-page capture.
        page = await browser.new_page(viewport={"width": 1400, "height": 2200})
        # the page is self-contained: refuse any request that is not the file itself
        await page.route(
            "**/*",
            lambda route: (
                route.abort() if not route.request.url.startswith("file:") else route.continue_()
            ),
        )
        await page.goto(page_file.as_uri())
        boxes = []
        for channel in CHANNELS:
            panel = page.locator(f'[data-channel="{channel}"]')
            assert await panel.is_visible()
            box = await panel.bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 200
            boxes.append(box)
        assert len({round(b["x"]) for b in boxes}) >= 3  # side by side, not one column
        web = page.locator('[data-channel="web"] sup.citation a').first
        assert "Admin Guide" in (await web.get_attribute("title") or "")
        slack_context = page.locator('[data-channel="slack"] .context a')
        assert await slack_context.count() >= 3
        # drawn in a shadow root of its own (locators reach into it)
        email = page.locator('[data-channel="email"] [aria-label="Email HTML part"]')
        await email.locator("text=Sources").wait_for()
        assert await email.locator("a", has_text="Acme Gateway Admin Guide").count() >= 1
        await page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
