"""Mixed-direction answers in the web and email HTML: each block reads in its own direction.

The answer used to carry one ``dir="auto"`` on its wrapper, so an English answer opening with an
Arabic quote read right to left throughout in mail clients (the web chat's CSS hid it there).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.async_api import Page

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.preview import preview_page
from tests.chromium import launch_chromium

ARABIC = "قم بتثبيت الحزمة أولاً."
ENGLISH = "Then start the server on port 8000 and open the chat page in a browser."
GUIDE = Source(id="g", title="Install guide", url="https://docs.example/install",
               text="Run the installer, then start the server.")  # fmt: skip
ARABIC_GUIDE = Source(id="a", title="دليل التثبيت", url="https://docs.example/ar",
                      text="قم بتثبيت الحزمة أولاً ثم شغّل الخادم.")  # fmt: skip
MIXED = (
    f"{ARABIC}[^1]\n\n{ENGLISH}[^2]\n\n## Ports and paths\n\n- Install it first.[^1]\n"
    "- Then start it.\n\n| Setting | Value |\n|---|---|\n| port | 8000 |\n\n"
    "```\nciteast serve\n```\n"
)

# where a block's text sits in its box: "left" or "right"
SIDE = """node => {
  const range = document.createRange();
  range.selectNodeContents(node);
  const text = range.getBoundingClientRect();
  const box = node.getBoundingClientRect();
  return text.left - box.left <= box.right - text.right ? "left" : "right";
}"""


def mixed_answer() -> Answer:
    citations = (
        Citation(n=1, source=ARABIC_GUIDE, source_number=1, quote=ARABIC_GUIDE.text),
        Citation(n=2, source=GUIDE, source_number=2, quote=GUIDE.text),
    )
    return Answer(text=MIXED, citations=citations)


class _Directions(HTMLParser):
    """Every start tag with its ``dir`` attribute (None when absent)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, str | None, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found.get("dir"), found.get("class")))


def directions(markup: str) -> list[tuple[str, str | None, str | None]]:
    parser = _Directions()
    parser.feed(markup)
    return parser.tags


@pytest.mark.parametrize("channel", ["web", "email"])
def test_each_text_block_carries_its_own_direction_and_the_answer_none(channel: str) -> None:
    tags = directions(render(channel, mixed_answer())["html"])
    blocks = [(tag, d) for tag, d, _ in tags if tag in ("p", "h2", "li", "th", "td")]
    assert {tag for tag, _ in blocks} == {"p", "h2", "li", "th", "td"}
    # the "Sources" heading of the list is the renderer's own English, not the answer's
    undirected = [t for t, d in blocks if d != "auto" and t != "h2"]
    assert undirected == []
    assert [d for t, d, _ in tags if t == "div"] == [None]  # the wrapper decides nothing
    assert [d for t, d, _ in tags if t == "pre"] == [None]  # code stays left to right


def test_web_source_entries_and_their_quotes_carry_their_own_direction() -> None:
    tags = directions(render("web", mixed_answer())["html"])
    entries = [d for t, d, cls in tags if t == "li" and cls != "citation"][-2:]
    quotes = [d for t, d, cls in tags if t == "span" and cls == "quote"]
    assert entries == ["auto", "auto"]
    assert quotes == ["auto", "auto"]


def test_email_references_and_their_quotes_carry_their_own_direction() -> None:
    html = render("email", mixed_answer())["html"]
    refs = re.findall(r'<li id="ref-\d+"[^>]*>', html)
    assert len(refs) == 2 and all('dir="auto"' in ref for ref in refs)
    assert len(re.findall(r'<span dir="auto" style="[^"]*font-style:italic', html)) == 2


async def _side_and_direction(page: Page, selector: str, text: str) -> tuple[str, str]:
    node = page.locator(selector, has_text=text).first
    direction = str(await node.evaluate("n => getComputedStyle(n).direction"))
    return direction, str(await node.evaluate(SIDE))


async def test_mixed_answer_reads_in_each_blocks_direction_in_chromium() -> None:
    payloads = {channel: render(channel, mixed_answer())["html"] for channel in ("web", "email")}
    async with launch_chromium() as browser:
        page = await browser.new_page(viewport={"width": 700, "height": 900})
        for channel, html in payloads.items():
            # no stylesheet: a mail client honours dir attributes, not the chat's CSS
            await page.set_content(html if channel == "email" else f"<body>{html}</body>")
            got = {
                "arabic": await _side_and_direction(page, "p", "قم بتثبيت"),
                "english": await _side_and_direction(page, "p", "Then start the server"),
                # the answer's "##": an h4 on the web (below the chat's headings), email's h2
                "heading": await _side_and_direction(page, "h2, h4", "Ports and paths"),
                "item": await _side_and_direction(page, "li", "Install it first"),
                "cell": await _side_and_direction(page, "td", "8000"),
                "english source": await _side_and_direction(page, "li", "Install guide"),
                "arabic source": await _side_and_direction(page, "li", "دليل التثبيت"),
            }
            assert got == {
                "arabic": ("rtl", "right"),
                "english": ("ltr", "left"),
                "heading": ("ltr", "left"),
                "item": ("ltr", "left"),
                "cell": ("ltr", "left"),
                "english source": ("ltr", "left"),
                "arabic source": ("rtl", "right"),
            }, channel
            code = page.locator("pre").first
            assert await code.evaluate("n => getComputedStyle(n).direction") == "ltr", channel


async def test_preview_keeps_each_web_and_email_blocks_direction(tmp_path: Path) -> None:
    page_file = tmp_path / "preview.html"
    page_file.write_text(preview_page(mixed_answer()), encoding="utf-8")
    async with launch_chromium() as browser:
        page = await browser.new_page(viewport={"width": 1400, "height": 2200})
        await page.goto(page_file.as_uri())
        web = '[data-channel="web"]'
        assert await _side_and_direction(page, f"{web} p", "Then start") == ("ltr", "left")
        assert await _side_and_direction(page, f"{web} p", "قم بتثبيت") == ("rtl", "right")
        # (its quote is a full-width block here: the title link shows the side)
        source = page.locator(f"{web} li", has_text="دليل التثبيت").locator("a.source-link")
        gaps = await source.evaluate(
            "a => { const t = a.getBoundingClientRect(), b = a.parentElement"
            ".getBoundingClientRect(); return [t.left - b.left, b.right - t.right]; }"
        )
        assert gaps[0] > gaps[1]  # nearer the right edge
        email = page.locator('[data-channel="email"] [aria-label="Email HTML part"]')
        english = email.locator("p", has_text="Then start")
        await english.wait_for()
        assert await english.evaluate("n => getComputedStyle(n).direction") == "ltr"
        assert await english.evaluate(SIDE) == "left"
