"""The chat's *Copy answer* (``plain_markdown.js``) and ``citecast ask``
(``renderers/plain_markdown.py``) read a few hundred random answers alike, in one page call (a
security review's random comparison found Python and the page disagreeing on quotes, lazy lines
and a list item's indented code).

The pieces are those both readings are meant to agree on: quotes, lazy lines, list items (one
beginning with indented code), code spans, escapes and citations. Fences and HTML blocks inside
quotes are left out: the resolver's own reading of those (which ``ask`` keeps, so a ``[^n]`` it
took for code stays as written) is not the page's block reading.
"""

from __future__ import annotations

import random
from pathlib import Path

from playwright.async_api import Browser

from bot.models import Answer
from renderers.plain_markdown import plain_markdown
from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.web.conftest import CannedAnswerer

PIECES: tuple[str, ...] = (">", "> ", "> > > ", " ", "\\", "[", "^1]", "[^2]", "\\[", "\\`")
PIECES += ("`", "``", "\n", "a", "*", "- ", "1. ", "1.     ")


def answers(count: int, seed: int) -> list[str]:
    """``count`` random answers of up to sixteen pieces, the same for one ``seed``."""
    draw = random.Random(seed)
    return ["".join(draw.choice(PIECES) for _ in range(draw.randint(1, 16))) for _ in range(count)]


def numbered(n: int) -> str:
    return f"[{n}]"


async def test_the_page_and_ask_read_random_answers_alike(browser: Browser, tmp_path: Path) -> None:
    texts = answers(400, seed=20261202)
    running = await serve_answerer(tmp_path, CannedAnswerer(Answer(text="Hi.", citations=())))
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await page.wait_for_function("() => window.Citecast && window.Citecast.actions")
        read = await page.evaluate(
            """(texts) => texts.map((t) => Citecast.actions.plainMarkdown(
                 t, (n) => "[" + n + "]"))""",
            texts,
        )
        differ = {
            text: (page_read, plain_markdown(text, numbered))
            for text, page_read in zip(texts, read, strict=True)
            if page_read != plain_markdown(text, numbered)
        }
        assert differ == {}
        assert sum("\\" in text for text in texts) > 200  # (the batch has escapes to read)
    finally:
        await context.close()
        await running.stop()
