"""The email HTML part fits a phone's width in headless Chromium, whatever the answer holds.

A long bare URL (or title, heading, table cell) used to widen the whole mail: on a 400-pixel
screen it was over 1,600 pixels wide, so every line of the answer scrolled sideways.
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from tests.chromium import launch_chromium

LONG_URL = "https://docs.example/" + "segment" * 60
LONG_TITLE = Source(id="t", title="Configuration" * 25, url="https://docs.example/c")
LONG_LINK = Source(id="u", title="Guide", url=LONG_URL + "/guide")
WIDTH = 400

ANSWERS = {
    "bare URL in a paragraph": Answer(text=f"Read {LONG_URL} first.\n"),
    "URL in a table cell": Answer(text=f"| page | note |\n|---|---|\n| {LONG_URL} | x |\n"),
    "long heading": Answer(text="## " + "Troubleshooting" * 25 + "\n\nText.\n"),
    "long source title": Answer(
        text="Text.[^1][^2]",
        citations=(
            Citation(n=1, source=LONG_TITLE, source_number=1),
            Citation(n=2, source=LONG_LINK, source_number=2, quote="q" * 250),
        ),
    ),
}


@pytest.fixture(scope="module")
def widths() -> dict[str, int]:
    """The scroll width of each answer's email HTML part in a 400-pixel-wide Chromium."""
    import asyncio

    async def measure() -> dict[str, int]:
        out: dict[str, int] = {}
        async with launch_chromium() as browser:
            page = await browser.new_page(viewport={"width": WIDTH, "height": 800})
            for name, answer in ANSWERS.items():
                await page.set_content(render("email", answer)["html"])
                out[name] = int(await page.evaluate("document.scrollingElement.scrollWidth"))
        return out

    return asyncio.run(measure())


@pytest.mark.parametrize("name", list(ANSWERS))
def test_email_html_never_scrolls_sideways_on_a_phone(widths: dict[str, int], name: str) -> None:
    assert widths[name] <= WIDTH


def test_a_code_block_scrolls_inside_itself_not_the_mail() -> None:
    html = render("email", Answer(text="```\n" + "z" * 400 + "\n```\n"))["html"]
    assert "overflow:auto" in html.split("<pre", 1)[1].split(">", 1)[0]
