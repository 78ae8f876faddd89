"""The preview's Discourse panel: an attached file shows as a file (a download link when the
context signs one, else its name marked attached), never as ``#harmful-link``, and a citation
used several times gives every reference an id of its own."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

from bot.models import Answer, Citation, Source
from renderers.base import RenderContext
from renderers.preview import preview_page
from renderers.sample import sample_answer
from tests.chromium import launch_chromium

MANUAL = Source(
    "fl200",
    title="FL200 operator manual",
    filename="fl200-manual.pdf",
    path="docs/fl200-manual.pdf",
    media_type="application/pdf",
    kind="file",
)
GUIDE = Source("guide", title="Install guide", url="https://docs.example/install")
THRICE = Answer(
    text=(
        "Check the oil first.[^1] Then the filter.[^1] See the guide.[^2]\n\n- And the belt.[^1]\n"
    ),
    citations=(Citation(1, MANUAL, 1), Citation(2, GUIDE, 2)),
)
SIGNED = RenderContext(signer=lambda source: f"https://files.example/dl/{source.id}?sig=abc")


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids += [value or "" for name, value in attrs if name == "id"]


def _discourse_panel(page: str) -> str:
    start = page.index('data-channel="discourse"')
    return page[start : page.index("</section>", page.index("</section>", start) + 1)]


def _duplicate_ids(page: str) -> list[str]:
    parser = _Ids()
    parser.feed(page)
    return [i for i, count in Counter(parser.ids).items() if count > 1]


def test_the_shipped_sample_names_its_file_and_has_unique_ids() -> None:
    page = preview_page(sample_answer())
    assert "harmful-link" not in page
    assert _duplicate_ids(page) == []
    panel = _discourse_panel(page)
    assert '<span class="attachment">reseller-prices-2026.pdf</span> (attached)' in panel
    assert "|attachment" not in panel and "citecast-upload" not in panel


def test_a_file_cited_three_times_links_to_its_signed_url() -> None:
    page = preview_page(THRICE, SIGNED)
    assert "harmful-link" not in page
    assert _duplicate_ids(page) == []
    panel = _discourse_panel(page)
    link = re.search(r'<a class="attachment" href="([^"]+)"[^>]*>fl200-manual\.pdf</a>', panel)
    assert link is not None and link.group(1) == "https://files.example/dl/fl200?sig=abc"
    refs = re.findall(r'id="(fnref-1[^"]*)"', panel)
    assert refs == ["fnref-1", "fnref-1:1", "fnref-1:2"]


def test_without_a_signer_the_file_is_named_as_attached() -> None:
    panel = _discourse_panel(preview_page(THRICE))
    assert '<span class="attachment">fl200-manual.pdf</span> (attached)' in panel
    assert "harmful-link" not in panel


async def test_chromium_shows_the_file_and_unique_references(tmp_path: Path) -> None:
    page_file = tmp_path / "preview.html"
    page_file.write_text(preview_page(THRICE, SIGNED), encoding="utf-8")
    async with launch_chromium() as browser:
        page = await browser.new_page(viewport={"width": 1400, "height": 1600})
        await page.route(
            "**/*",
            lambda route: (
                route.abort() if not route.request.url.startswith("file:") else route.continue_()
            ),
        )
        await page.goto(page_file.as_uri())
        panel = page.locator('[data-channel="discourse"]')
        file_link = panel.locator("a.attachment", has_text="fl200-manual.pdf")
        assert await file_link.is_visible()
        assert await file_link.get_attribute("href") == "https://files.example/dl/fl200?sig=abc"
        assert await panel.locator('a[href="#harmful-link"]').count() == 0
        ids = await page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
        assert len(ids) == len(set(ids))
        assert await panel.locator("sup.footnote-ref").count() == 4
