"""A source list's quote, in real headless Chromium, drops the backslash of every Markdown escape.

Quotes are source text, which may be Markdown: ``sources.js`` showed ``\\$HOME`` and ``\\"x\\"``
with their backslashes, as it dropped one only before some of the ASCII punctuation CommonMark
escapes. It now reads an escape by the rule "Copy answer" uses
(``Citecast.actions.plainMarkdown``): a backslash before any ASCII punctuation.
"""

from __future__ import annotations

import string
from pathlib import Path

from playwright.async_api import Browser, expect

from bot.models import Answer, Citation
from tests.connectors.browser.conftest import ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
QUOTE = 'Set \\$HOME \\& \\"x\\" at 50\\% \\(or 60\\%\\); see \\<docs\\> \\@team\\?'
QUOTE_SHOWN = 'Set $HOME & "x" at 50% (or 60%); see <docs> @team?'


async def test_a_quote_shows_every_escaped_character_without_its_backslash(
    browser: Browser, tmp_path: Path
) -> None:
    answer = Answer(
        text="Set the home folder first [^1].",
        citations=(Citation(n=1, source=passage(1), source_number=1, quote=QUOTE),),
    )
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "What comes first?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        quote = page.locator(f"{ANSWERED} ol.sources .quote")
        await expect(quote).to_have_count(1)
        assert QUOTE_SHOWN in await quote.inner_text()

        # each ASCII punctuation character escaped, as the source list and "Copy answer" read it
        texts = [f"a \\{ch} b" for ch in string.punctuation]
        read = await page.evaluate(
            """(texts) => texts.map((text) => {
                 const shown = document.createElement("span");
                 Citecast.sources.appendInline(shown, text);
                 return [shown.textContent, Citecast.actions.plainMarkdown(text, String)];
               })""",
            texts,
        )
        expected = [[f"a {ch} b", f"a {ch} b"] for ch in string.punctuation]
        assert dict(zip(string.punctuation, read, strict=True)) == dict(
            zip(string.punctuation, expected, strict=True)
        )
    finally:
        await page.close()
        await running.stop()
