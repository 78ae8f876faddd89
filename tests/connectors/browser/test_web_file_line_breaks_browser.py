"""A quote that spans a line break of a Markdown file still opens the file at the quoted words.

The model copies a quote from the passage as written, line breaks and all; the reading page
shows a soft break as a space and a hard break (two spaces or a backslash before the newline)
as ``<br>``, which Chromium matches only as a line break, never as a space. The link's text
fragment must hold the words as they read there, or Chromium finds nothing and the page opens
at its top (:func:`bot.deeplinks.visible_text`).
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from bot.deeplinks import file_link
from bot.models import Source
from tests.connectors.browser.test_web_file_passage_browser import opens_scrolled_to, serve_examples

FILLER = "".join(f"Filler paragraph {n} says nothing in particular.\n\n" for n in range(40))
DOCUMENT = (
    "# Chunking\n\n"
    + FILLER
    + "The chunk size decides the size of a\npassage and of its citation.\n\n"
    + FILLER
    + "A hard break ends this  \nline and the next one follows.\n\n"
    + FILLER
    + "A backslash break ends this\\\nline as well.\n\n"
    + FILLER
)
QUOTES = [
    ("the size of a\npassage", "the size of a passage"),
    ("ends this  \nline and the next one", "ends this line and the next one"),
    ("ends this\\\nline as well", "ends this line as well"),
]


async def test_a_quote_across_a_line_break_opens_the_file_at_it(
    browser: Browser, tmp_path: Path
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "chunking.md").write_text(DOCUMENT, encoding="utf-8")
    signer, live, services = await serve_examples(tmp_path, root=kb)
    context = await browser.new_context(viewport={"width": 360, "height": 320})
    try:
        page = await context.new_page()
        source = Source(id="chunking.md", path=str(kb / "chunking.md"), filename="chunking.md")
        plain = signer.url_for(source, frozenset({"public"}), live.url)
        assert plain is not None
        for quote, shown in QUOTES:
            await opens_scrolled_to(page, plain, file_link(plain, source, quote), shown)
    finally:
        await context.close()
        await live.stop()
        services.store.close()
