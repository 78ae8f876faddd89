"""A cited sample file opens readable, at the cited passage, in real headless Chromium.

The sample knowledge base's files have no public URL, so a citation links their signed
``/files/`` URL with the quote's text fragment (:func:`bot.deeplinks.file_link`). Opening it
must show the HTML page (not download it) and the Markdown guide rendered, scrolled so the
quoted passage is on screen. Chromium applies a text fragment on a navigation it did not get
from a user gesture, so ``page.goto`` is what a click does here.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page

from bot.connectors.app import build_app
from bot.deeplinks import file_link
from bot.filetokens import FileSigner
from bot.models import Source
from bot.runtime import Services
from bot.store import Store
from tests.connectors.browser.conftest import EXAMPLES, browser_settings
from tests.connectors.web.conftest import (
    CannedAnswerer,
    LiveServer,
    cited_answer,
    start_live_server,
)

SECRET = b"browser-test-secret-0123456789"
# the smallest element holding the words, and whether all of it is inside the viewport
IN_VIEW = """(words) => {
  const squash = (s) => s.replace(/\\s+/g, " ");
  let best = null;
  for (const el of document.body.querySelectorAll("*")) {
    if (squash(el.textContent).includes(words)) best = el;
  }
  if (best === null) return false;
  const box = best.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


async def opens_scrolled_to(page: Page, plain: str, link: str, shown: str) -> None:
    """Opened at ``plain`` (no fragment), ``shown`` is off screen; opened at ``link`` afresh (a
    load, as from the chat, not a scroll), the browser scrolls it into view."""
    await page.goto(plain)
    assert await page.evaluate(IN_VIEW, shown) is False, f"{shown!r}: already on screen"
    await page.goto("about:blank")
    await page.goto(link)
    await page.wait_for_function(IN_VIEW, arg=shown, timeout=10_000)


CITED = [
    # the quotes the extractive Assistant gives for "How do I start the server?" and "How long
    # do signed file downloads last?"; the Markdown one with its backticks, which the page hides
    (
        "getting-started.md",
        "Run `make serve` to ingest the sample knowledge base and start the web chat on "
        "http://127.0.0.1:8000.",
        "Run make serve to ingest the sample knowledge base",
    ),
    (
        "security-model.html",
        "A file without a public URL is served through a signed link that expires after one "
        "hour by default.",
        "A file without a public URL is served through a signed link",
    ),
]


async def serve_examples(
    tmp_path: Path, root: Path = EXAMPLES
) -> tuple[FileSigner, LiveServer, Services]:
    """The chat app serving the files under ``root`` (the sample knowledge base by default)
    through signed links."""
    settings = browser_settings(tmp_path)
    services = Services(
        settings=settings,
        store=Store(settings.store.path),
        assistant=CannedAnswerer(cited_answer()),
    )
    signer = FileSigner(SECRET, "", 600, roots=[root])
    services.signer = signer
    live = await start_live_server(build_app(services, connectors=[], shutdown_grace=1))
    return signer, live, services


async def test_a_cited_sample_file_opens_readable_at_the_passage(
    browser: Browser, tmp_path: Path
) -> None:
    signer, live, services = await serve_examples(tmp_path)
    # a phone-sized window: the passage starts well below the first screen
    context = await browser.new_context(viewport={"width": 360, "height": 320})
    try:
        page = await context.new_page()
        for name, quote, shown in CITED:
            source = Source(id=name, path=str(EXAMPLES / name), filename=name, kind="file")
            plain = signer.url_for(source, frozenset({"public"}), live.url)
            assert plain is not None
            link = file_link(plain, source, quote)
            assert "#:~:text=" in link
            await opens_scrolled_to(page, plain, link, shown)
            # readable, not the source text: no markup characters around the words
            assert "`make serve`" not in await page.inner_text("body")
            assert "<code>" not in await page.inner_text("body")
    finally:
        await context.close()
        await live.stop()
        services.store.close()
