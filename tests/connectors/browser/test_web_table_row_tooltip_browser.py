"""A citation quoting a table row shows the row as its cells in the chat's tooltip, in Chromium.

The source list and the shared page show a quoted row as ``Pallet · 95 EUR``; the tooltip of the
number beside the claim showed the passage's raw Markdown line, ``| Pallet | 95 EUR |``.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from bot.knowledge.ingest import ingest
from tests.connectors.browser.conftest import ask, browser_settings, serve_citecast

TABLE = (
    "# Returns\n\n## Fees\n\n"
    "| Shipment type | Return fee |\n|---|---|\n"
    "| Parcel | 8 EUR |\n"
    "| Pallet | 95 EUR |\n"
)


async def test_a_quoted_row_reads_as_its_cells_in_the_tooltip(
    browser: Browser, tmp_path: Path
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "returns.md").write_text(TABLE, encoding="utf-8")
    settings = browser_settings(tmp_path)
    ingest([kb], settings.index)
    running = await serve_citecast(settings)
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "What is the return fee for a pallet shipment?")
        number = page.locator("sup.cc-cite a").first
        await number.focus()
        tip = page.get_by_role("tooltip")
        listed = await page.locator("ol.sources li .quote").first.inner_text()
        assert "95 EUR" in listed and "|" not in listed
        shown = await tip.inner_text()
        assert "95 EUR" in shown
        assert "|" not in shown, shown
    finally:
        await page.close()
        await running.stop()
