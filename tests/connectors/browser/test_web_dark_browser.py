"""The chat page, the widget and an answer's shared page under ``prefers-color-scheme: dark``,
in headless Chromium: dark backgrounds, light text, every text drawn with AA contrast against
what it sits on, and a host page whose own colours the widget leaves alone."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, ViewportSize, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tests.chromium import artifact
from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.web.conftest import (
    CannedAnswerer,
    cited_answer,
    passage,
    start_live_server,
)

ANSWERED = ".cc-answer[aria-busy=false]"
VIEWPORT: ViewportSize = {"width": 900, "height": 760}
TEXT = "Install it with `pip install citecast`.[^1]\n\nThen run it.[^2]\n"

# For each element matching the selectors under ``root`` (a document or the widget's shadow
# root) that shows text: its colour, the background it is drawn on (the first ancestor, across
# the shadow root, with one that is not transparent) and their contrast ratio.
COLOURS = """([root, selectors]) => {
  const rgb = value => (value.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const lin = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const backdrop = node => {
    for (let n = node; n; n = n.parentElement || (n.getRootNode().host || null)) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const scope = root === 'widget' ? document.querySelector('#citecast-widget').shadowRoot
                                  : document;
  return selectors.flatMap(selector => Array.from(scope.querySelectorAll(selector))
    .filter(node => node.getClientRects().length && node.textContent.trim())
    .map(node => {
      const text = rgb(getComputedStyle(node).color).slice(0, 3);
      const back = backdrop(node);
      const [hi, lo] = [lum(text), lum(back)].sort((a, b) => b - a);
      return { selector, text: lum(text), back: lum(back), ratio: (hi + 0.05) / (lo + 0.05) };
    }));
}"""
SELECTORS = [
    ".cc-title",
    ".cc-subtitle",
    ".cc-question",
    ".cc-body p",
    ".cc-body code",
    ".cc-body sup a",
    "ol.sources a",
    "ol.sources .detail",
    ".cc-sources-title, .sources-title",
    ".cc-status",
    ".cc-label",
    ".cc-hint",
    ".cc-primary",
    ".cc-secondary",
]


async def assert_dark(page: Page, root: str, where: str) -> None:
    """Every text under ``root`` is light (muted text too) on a dark background, with AA
    contrast."""
    found = await page.evaluate(COLOURS, [root, SELECTORS])
    seen = {item["selector"] for item in found}
    assert {".cc-title", ".cc-body p", "ol.sources a", ".cc-primary"} <= seen, (where, seen)
    for item in found:
        assert item["ratio"] >= 4.5, (where, item)
        if item["selector"] not in {".cc-question", ".cc-primary"}:  # light on the accent
            assert item["back"] < 0.05 < 0.3 < item["text"], (where, item)


def host_site() -> Starlette:
    """A page with colours of its own (none for dark), with and without the widget."""

    async def page(request: Request) -> Response:
        citecast = request.query_params.get("citecast")
        widget = f'<script src="{citecast}/widget.js" data-citecast async></script>'
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme</title>"
            "<style>body {background: #fffbe6; color: #333333}</style></head>"
            "<body><h1>Acme</h1><p>Our own page, light whatever the visitor prefers.</p>"
            f"{widget if citecast else ''}</body></html>"
        )

    return Starlette(routes=[Route("/", page)])


HOST_COLOURS = """() => ({
  body: getComputedStyle(document.body).backgroundColor,
  text: getComputedStyle(document.querySelector('p')).color,
  scheme: getComputedStyle(document.documentElement).colorScheme,
})"""


async def test_the_page_the_shared_answer_and_the_widget_are_dark_when_the_visitor_prefers(
    browser: Browser, tmp_path: Path
) -> None:
    host = await start_live_server(host_site())
    answerer = CannedAnswerer(cited_answer(passage(1), passage(2), text=TEXT))
    running = await serve_answerer(tmp_path, answerer, cors_origins=[host.url])
    context = await browser.new_context(
        color_scheme="dark",
        viewport=VIEWPORT,
        permissions=["clipboard-read", "clipboard-write"],
    )
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await page.get_by_label("Your question").fill("How do I install it?")
        await page.get_by_label("Your question").press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await page.screenshot(path=artifact("chat-dark.png"), full_page=True)
        await assert_dark(page, "page", "the chat page")

        # the answer's own page, as someone who follows its link sees it
        await page.get_by_role("button", name="Copy link to this answer").click()
        shared = await page.evaluate("navigator.clipboard.readText()")
        await page.goto(shared)
        await expect(page.locator("ol.sources > li")).to_have_count(2)
        await page.screenshot(path=artifact("shared-answer-dark.png"), full_page=True)
        found = await page.evaluate(COLOURS, ["page", [".cc-title", ".cc-body p", "ol.sources a"]])
        assert len(found) >= 4, found
        for item in found:
            assert item["ratio"] >= 4.5 and item["back"] < 0.05 < 0.3 < item["text"], item

        # the widget on a light site: dark itself, the site as it was
        await page.goto(host.url + "/")
        plain = await page.evaluate(HOST_COLOURS)
        await page.goto(f"{host.url}/?citecast={running.url}")
        await page.get_by_role("button", name="Ask citecast").click()
        await page.get_by_label("Your question").fill("How do I install it?")
        await page.get_by_label("Your question").press("Enter")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await page.screenshot(path=artifact("widget-dark.png"))
        await assert_dark(page, "widget", "the widget")
        launcher = await page.evaluate(COLOURS, ["widget", [".cc-launcher"]])
        assert launcher and launcher[0]["ratio"] >= 4.5, launcher
        assert await page.evaluate(HOST_COLOURS) == plain
        assert plain["scheme"] == "normal", plain
    finally:
        await context.close()
        await running.stop()
        await host.stop()
