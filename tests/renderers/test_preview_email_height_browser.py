"""The preview's email panel is as tall as the email, in headless Chromium: a one-citation
answer used to sit at the top of a fixed 980 px frame, above some 500 px of empty grey."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Page

from bot.models import Answer, Citation, Source
from renderers.preview import preview_page
from renderers.sample import sample_answer
from tests.chromium import artifact, launch_chromium

ONE_CITATION = Answer(
    text="Restart the gateway after an upgrade.[^1]",
    citations=(Citation(1, Source("s1", title="Admin Guide", url="https://d.example/g"), 1),),
)
FRAME = '[data-channel="email"] [aria-label="Email HTML part"]'
OLD_FRAME = '[data-channel="email"] iframe'  # how it was drawn: measured the same way
# the frame's own 1 px border, top and bottom, and rounding
MARGIN_PX = 4


async def frame_and_content_heights(page: Page) -> tuple[float, float]:
    """The email frame's height on the page, and the height of the email drawn in it."""
    if await page.locator(OLD_FRAME).count():
        outer = await page.locator(OLD_FRAME).evaluate("f => f.getBoundingClientRect().height")
        inner = await page.frames[1].evaluate(
            "document.documentElement.getBoundingClientRect().height"
        )
        return float(outer), float(inner)
    outer, inner = await page.locator(FRAME).evaluate(
        """host => [host.getBoundingClientRect().height,
                    host.shadowRoot.querySelector('.email-body').getBoundingClientRect().height]"""
    )
    return float(outer), float(inner)


async def test_the_email_frame_is_as_tall_as_the_email(tmp_path: Path) -> None:
    async with launch_chromium() as browser:
        page = await browser.new_page(viewport={"width": 1400, "height": 1000})
        # the page is self-contained: refuse any request that is not the file itself
        await page.route(
            "**/*",
            lambda route: (
                route.abort() if not route.request.url.startswith("file:") else route.continue_()
            ),
        )
        heights = []
        for name, answer in (("one-citation", ONE_CITATION), ("sample", sample_answer())):
            page_file = tmp_path / f"{name}.html"
            page_file.write_text(preview_page(answer), encoding="utf-8")
            await page.goto(page_file.as_uri())
            frame, content = await frame_and_content_heights(page)
            await page.screenshot(path=str(artifact(f"preview-email-{name}.png")), full_page=True)
            assert content > 100, (name, content)
            assert 0 <= frame - content <= MARGIN_PX, (name, frame, content)
            heights.append(frame)
        assert heights[0] < heights[1]  # a short answer, a short frame
