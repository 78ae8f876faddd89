"""A quoted table row opens its file at that row, in real headless Chromium.

The reading page shows a Markdown file's table, and an HTML file's, as a ``<table>``. The quote
of a row is its line as the passage holds it ("| Warehouse night shift | 22:00–06:00 | 8 hours
|"): a text fragment of those words, pipes and all, was found nowhere on the page, which then
opened at its top (:func:`bot.table_rows.row_target`).
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from bot.deeplinks import file_link
from bot.models import Source
from tests.connectors.browser.test_web_file_passage_browser import opens_scrolled_to, serve_examples

FILLER = "".join(f"Filler paragraph {n} says nothing in particular.\n\n" for n in range(40))
MARKDOWN = (
    "# Onboarding\n\n"
    + FILLER
    + "| Team | Core hours | Shift length |\n|---|---|---|\n"
    + "| Office | 10:00–15:00 | 8 hours |\n"
    + "| Warehouse night shift | 22:00–06:00 | 8 hours |\n\n"
    + FILLER
)
HTML = (
    "<!doctype html><html><head><title>Returns</title></head><body><h1>Returns</h1>"
    + "".join(f"<p>Filler paragraph {n} says nothing in particular.</p>" for n in range(40))
    + "<table><tr><th>Shipment type</th><th>Return fee</th></tr>"
    + "<tr><td>Parcel</td><td>8 EUR</td></tr><tr><td>Pallet</td><td>95 EUR</td></tr></table>"
    + "".join(f"<p>More filler {n}.</p>" for n in range(40))
    + "</body></html>"
)
CITED = [
    ("onboarding.md", MARKDOWN, "| Warehouse night shift | 22:00–06:00 | 8 hours |", "22:00–06:00"),
    ("returns.html", HTML, "| Pallet | 95 EUR |", "95 EUR"),
]


async def test_a_quoted_row_opens_the_file_at_the_row(browser: Browser, tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    for name, text, _, _ in CITED:
        (kb / name).write_text(text, encoding="utf-8")
    signer, live, services = await serve_examples(tmp_path, root=kb)
    context = await browser.new_context(viewport={"width": 360, "height": 320})
    try:
        page = await context.new_page()
        for name, _, quote, shown in CITED:
            source = Source(id=name, path=str(kb / name), filename=name)
            plain = signer.url_for(source, frozenset({"public"}), live.url)
            assert plain is not None
            # the row's other cell comes on screen: the browser scrolled to the row
            await opens_scrolled_to(page, plain, file_link(plain, source, quote), shown)
    finally:
        await context.close()
        await live.stop()
        services.store.close()
