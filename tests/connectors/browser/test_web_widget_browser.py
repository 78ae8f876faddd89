"""The embeddable widget on a page from another origin, in real headless Chromium."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tests.chromium import artifact
from tests.connectors.browser.conftest import RunningCitecast, start_citecast
from tests.connectors.web.conftest import LiveServer, start_live_server

ANSWERED = ".cc-answer[aria-busy=false]"


WIDGET_JS = Path(__file__).resolve().parents[3] / "bot/connectors/static/widget.js"


HOSTILE_STYLE = (
    # a page whose styles would reach the widget if it were not isolated
    "* {font-size:30px !important; line-height:3 !important; color:#c00 !important;"
    " font-family:serif !important; letter-spacing:3px !important}"
    " div {border:2px dashed green; padding:20px}"
    " :root {--cc-accent:#00ff00; --cc-bg:#000000}"
)
STYLES = {
    "/": "",
    "/rem": "html{font-size:62.5%} body{font-size:1.6rem; line-height:1.2}",
    "/hostile": HOSTILE_STYLE,
}


def host_site() -> Starlette:
    """Someone else's site that embeds the widget (its citecast URL comes in the query).

    ``/``, ``/rem`` and ``/hostile`` differ only in their own styles (``STYLES``); ``/tall`` is a
    long page. ``/cdn`` embeds the site's own copy of widget.js, pointed at citecast by
    ``data-api`` and with its own ``data-label``; ``/twice`` embeds that copy twice, the first
    tag's copy arriving late (``?delay=``).
    """

    def embedding(tag: str, style: str = "", body: str = "") -> Response:
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme support</title>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<style>body{{font-family:serif;background:#fafafa}} p{{color:#d00}} {style}</style>"
            f"</head><body><h1>Acme support</h1><p>Our own page, our own styles.</p>{body}"
            f"{tag}</body></html>"
        )

    def script(request: Request) -> str:
        citecast = request.query_params["citecast"]
        return f'<script src="{citecast}/widget.js" data-citecast async></script>'

    async def page(request: Request) -> Response:
        return embedding(script(request), STYLES[request.url.path])

    async def tall_page(request: Request) -> Response:
        return embedding(script(request), body="<p style='height:3000px'>Tall text.</p>")

    async def cdn_page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return embedding(
            f'<script src="/static/widget.js" data-citecast data-api="{citecast}" '
            'data-label="Ask Acme" async></script>'
        )

    async def twice_page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return embedding(
            f'<script src="/static/widget.js?delay=0.8" data-citecast data-api="{citecast}" '
            'data-label="Help A" async></script>'
            f'<script src="/static/widget.js" data-citecast data-api="{citecast}" '
            'data-label="Help B" async></script>'
        )

    async def widget(request: Request) -> Response:
        await asyncio.sleep(float(request.query_params.get("delay", "0")))
        return Response(WIDGET_JS.read_text("utf-8"), media_type="text/javascript")

    return Starlette(
        routes=[
            *(Route(path, page) for path in STYLES),
            Route("/tall", tall_page),
            Route("/cdn", cdn_page),
            Route("/twice", twice_page),
            Route("/static/widget.js", widget),
        ]
    )


async def open_widget(page: Page, host: LiveServer, citecast_url: str, path: str = "/") -> None:
    await page.goto(f"{host.url}{path}?citecast={citecast_url}")
    launcher = page.get_by_role("button", name="Ask citecast")
    await expect(launcher).to_be_visible()
    await launcher.click()
    await expect(page.locator("#citecast-panel")).to_be_visible()


async def ask_in_widget(page: Page, question: str) -> None:
    box = page.locator("#citecast-panel .cc-input")
    await expect(box).to_be_focused()
    await box.fill(question)
    await box.press("Enter")


async def test_widget_on_another_origin(browser: Browser, tmp_path: Path) -> None:
    host = await start_live_server(host_site())
    running = await start_citecast(tmp_path, cors_origins=[host.url], title="Acme docs")
    other = await start_live_server(host_site())  # an origin citecast does not allow
    try:
        assert host.url != running.url
        context = await browser.new_context(viewport={"width": 1000, "height": 760})
        page = await context.new_page()
        await open_widget(page, host, running.url)
        # the panel is named as the deployment configured (web.title, from /api/config)
        await expect(page.locator("#citecast-panel .cc-title")).to_have_text("Acme docs")
        await ask_in_widget(page, "How do I install citecast on Linux?")
        answered = page.locator(f"#citecast-panel {ANSWERED}")
        await expect(answered).to_have_count(1, timeout=20_000)
        numbers = await page.locator(f"#citecast-panel {ANSWERED} .cc-body sup a").all_inner_texts()
        assert numbers and numbers[0] == "[1]"
        items = page.locator(f"#citecast-panel {ANSWERED} ol.sources > li")
        assert await items.count() == len({n.strip("[]?") for n in numbers})
        first = page.locator(f"#citecast-panel {ANSWERED} .cc-body sup a").first
        await first.hover()
        tip_id = await first.get_attribute("aria-describedby")
        await expect(page.locator(f"#citecast-panel [id='{tip_id}']")).to_be_visible()
        # The host page's styles do not leak into the widget (shadow DOM).
        color = await page.locator(
            "#citecast-panel .cc-empty, #citecast-panel .cc-body p"
        ).first.evaluate("el => getComputedStyle(el).color")
        assert color != "rgb(221, 0, 0)"
        await page.screenshot(path=str(artifact("widget-answer.png")))
        # however long the conversation, the close button stays in view (the chat scrolls)
        await expect(page.locator("#citecast-panel .cc-close")).to_be_in_viewport()
        await expect(page.locator("#citecast-panel .cc-close")).to_be_visible()
        # a vote from the embedding site passes CORS like the question did
        await page.locator("#citecast-panel .cc-vote").first.click()
        await expect(page.locator("#citecast-panel .cc-status")).to_have_text(
            "Thanks for the feedback."
        )

        # Escape closes the panel and gives focus back to the launcher.
        await page.locator("#citecast-panel .cc-input").press("Escape")
        await expect(page.locator("#citecast-panel")).to_be_hidden()
        assert (
            await page.evaluate(
                "document.querySelector('#citecast-widget').shadowRoot.activeElement.className"
            )
            == "cc-launcher"
        )

        # A reload of the host page shows the same conversation with the same numbers.
        await open_widget(page, host, running.url)
        await expect(answered).to_have_count(1, timeout=10_000)
        again = await page.locator(f"#citecast-panel {ANSWERED} .cc-body sup a").all_inner_texts()
        assert again == numbers

        # "New conversation" works in the panel too.
        await page.locator("#citecast-panel").get_by_role("button", name="New conversation").click()
        await expect(answered).to_have_count(0)
        await expect(page.locator("#citecast-panel .cc-status")).to_have_text(
            "Started a new conversation."
        )
        await page.screenshot(path=str(artifact("widget-new-conversation.png")))

        # A site missing from web.cors_origins cannot use the API.
        blocked = await context.new_page()
        await open_widget(blocked, other, running.url)
        await ask_in_widget(blocked, "How do I install citecast?")
        await expect(blocked.locator("#citecast-panel .cc-failed .cc-error")).to_contain_text(
            "Cannot reach the citecast server", timeout=15_000
        )
        await context.close()
    finally:
        await other.stop()
        await running.live.stop()
        running.services.store.close()
        await host.stop()


async def test_widget_served_from_the_site_itself_with_its_own_label(
    browser: Browser, tmp_path: Path
) -> None:
    host = await start_live_server(host_site())
    running = await start_citecast(tmp_path, cors_origins=[host.url])
    try:
        page = await browser.new_page()
        await page.goto(f"{host.url}/cdn?citecast={running.url}")
        launcher = page.get_by_role("button", name="Ask Acme")
        await expect(launcher).to_have_text("Ask Acme")  # shown as well as spoken
        await launcher.click()
        await ask_in_widget(page, "How do I install citecast on Linux?")
        answered = page.locator(f"#citecast-panel {ANSWERED} .cc-body sup a")
        await expect(answered.first).to_have_text("[1]", timeout=20_000)
        await page.close()
    finally:
        await running.live.stop()
        running.services.store.close()
        await host.stop()


@dataclass
class Embedded:
    """citecast, and a host site it lets embed the widget."""

    host: LiveServer
    citecast: RunningCitecast


@pytest.fixture
async def embedded(tmp_path: Path) -> AsyncIterator[Embedded]:
    host = await start_live_server(host_site())
    running = await start_citecast(tmp_path, cors_origins=[host.url])
    yield Embedded(host, running)
    await running.live.stop()
    running.services.store.close()
    await host.stop()


async def widget_page(
    browser: Browser, embedded: Embedded, path: str = "/", width: int = 1000, height: int = 760
) -> Page:
    """A new page of the host site at ``path`` with the widget open."""
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = await context.new_page()
    await open_widget(page, embedded.host, embedded.citecast.url, path)
    return page


async def test_new_answers_scroll_the_panel_not_the_host_page(
    browser: Browser, embedded: Embedded
) -> None:
    page = await widget_page(browser, embedded, "/tall")
    await page.evaluate("window.scrollTo(0, 500)")
    chat = page.locator("#citecast-panel .cc-root")
    questions = ["How do I install citecast on Linux?", "How long do download links last?"]
    for asked, question in enumerate(questions, 1):
        await ask_in_widget(page, question)
        await expect(page.locator(f"#citecast-panel {ANSWERED}")).to_have_count(
            asked, timeout=20_000
        )
        assert await page.evaluate("window.scrollY") == 500, "the host page moved"
    # the panel scrolled to the newest turn: its start is in view, above the question box
    assert await chat.evaluate("el => el.scrollTop") > 0
    newest = await page.locator("#citecast-panel .cc-turn").last.bounding_box()
    panel = await chat.bounding_box()
    form = await page.locator("#citecast-panel .cc-form").bounding_box()
    assert newest and panel and form
    assert panel["y"] <= newest["y"] < form["y"], (newest, panel, form)
    await page.context.close()


async def widget_sizes(page: Page) -> dict[str, list[Any]]:
    """What the widget looks like: boxes, font sizes, line heights and colours."""
    sizes: dict[str, list[Any]] = await page.evaluate(
        """() => {
        const root = document.querySelector('#citecast-widget').shadowRoot;
        const style = (sel) => {
          const css = getComputedStyle(root.querySelector(sel));
          return [css.fontSize, css.lineHeight, css.fontFamily, css.color, css.letterSpacing,
                  css.backgroundColor];
        };
        const box = (sel) => {
          const r = root.querySelector(sel).getBoundingClientRect();
          return [r.x, r.y, r.width, r.height].map(Math.round);
        };
        const out = {launcher: box('.cc-launcher'), panel: box('.cc-panel')};
        for (const sel of ['.cc-launcher', '.cc-title', '.cc-subtitle', '.cc-input', '.cc-hint',
                           '.cc-status', '.cc-primary', '.cc-body p', '.cc-body sup a',
                           '.cc-body .sources-title', '.cc-vote', '.cc-tooltip:not([hidden])']) {
          out[sel] = style(sel);
        }
        return out;
      }"""
    )
    return sizes


async def test_the_widget_looks_the_same_whatever_the_page_styles(
    browser: Browser, embedded: Embedded
) -> None:
    # a page's root font size (rem) and its !important rules on everything leave it alone
    sizes = {}
    for path in STYLES:
        page = await widget_page(browser, embedded, path)
        await ask_in_widget(page, "How do I install citecast on Linux?")
        await expect(page.locator(f"#citecast-panel {ANSWERED}")).to_have_count(1, timeout=20_000)
        await page.locator(f"#citecast-panel {ANSWERED} .cc-body sup a").first.focus()
        sizes[path] = await widget_sizes(page)
        await page.screenshot(path=str(artifact(f"widget-styles{path.replace('/', '-')}.png")))
        await page.context.close()
    plain = sizes["/"]
    assert plain[".cc-title"][0] == "17.6px" and plain[".cc-body sup a"][0] == "11.52px"
    for path in ("/rem", "/hostile"):
        assert sizes[path] == plain, path
    # the launcher sits below the panel, never over it
    launcher_y, panel_y, panel_height = plain["launcher"][1], plain["panel"][1], plain["panel"][3]
    assert launcher_y >= panel_y + panel_height


async def test_escape_on_a_citation_only_dismisses_its_tooltip(
    browser: Browser, embedded: Embedded
) -> None:
    page = await widget_page(browser, embedded)
    await ask_in_widget(page, "How do I install citecast on Linux?")
    first = page.locator(f"#citecast-panel {ANSWERED} .cc-body sup a").first
    await first.focus()
    tip = page.locator(f"#citecast-panel [id='{await first.get_attribute('aria-describedby')}']")
    await expect(tip).to_be_visible()
    await first.press("Escape")
    await expect(tip).to_be_hidden()
    await expect(page.locator("#citecast-panel")).to_be_visible()
    await expect(first).to_be_focused()
    # with the tooltip gone, Escape closes the panel as usual
    await first.press("Escape")
    await expect(page.locator("#citecast-panel")).to_be_hidden()
    await page.context.close()


async def test_tooltips_stay_inside_the_panel_on_a_phone(
    browser: Browser, embedded: Embedded
) -> None:
    page = await widget_page(browser, embedded, width=375, height=740)
    await ask_in_widget(page, "How do I install citecast on Linux?")
    await expect(page.locator(f"#citecast-panel {ANSWERED}")).to_have_count(1, timeout=20_000)
    panel = await page.locator("#citecast-panel").bounding_box()
    assert panel
    citations = page.locator(f"#citecast-panel {ANSWERED} .cc-body sup a")
    assert await citations.count() >= 2
    for link in await citations.all():
        await link.focus()
        tip = page.locator(f"#citecast-panel [id='{await link.get_attribute('aria-describedby')}']")
        await expect(tip).to_be_visible()
        box = await tip.bounding_box()
        assert box
        assert panel["x"] <= box["x"], (box, panel)
        assert box["x"] + box["width"] <= panel["x"] + panel["width"], (box, panel)
    await page.screenshot(path=str(artifact("widget-phone-tooltip.png")))
    await page.context.close()


async def test_two_embeds_make_one_widget_set_up_by_the_first_tag(
    browser: Browser, embedded: Embedded
) -> None:
    page = await browser.new_page()
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    # the first tag's copy of widget.js arrives after the second one has run
    await page.goto(f"{embedded.host.url}/twice?citecast={embedded.citecast.url}")
    await expect(page.get_by_role("button", name="Help A")).to_be_visible()
    await page.wait_for_function(
        "performance.getEntriesByType('resource').filter("
        "e => e.name.includes('widget.js')).length === 2"
    )
    await page.wait_for_timeout(200)
    assert await page.locator("#citecast-widget").count() == 1
    assert await page.get_by_role("button", name="Help B").count() == 0
    assert len([w for w in warnings if "embedded more than once" in w]) == 1, warnings
    await page.close()


async def test_voting_in_the_widget_keeps_focus_in_the_panel(
    browser: Browser, embedded: Embedded
) -> None:
    page = await widget_page(browser, embedded)
    await ask_in_widget(page, "How do I install citecast on Linux?")
    panel = page.locator("#citecast-panel")
    await expect(panel.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    helpful = panel.get_by_role("button", name="Helpful", exact=True)
    await helpful.focus()
    await page.keyboard.press("Enter")
    await expect(panel.locator(".cc-status")).to_have_text("Thanks for the feedback.")
    await expect(helpful).to_be_focused()
    # focus is still in the panel, so Escape closes it and returns to the launcher
    await page.keyboard.press("Escape")
    await expect(panel).to_be_hidden()
    await expect(page.get_by_role("button", name="Ask citecast")).to_be_focused()
    await page.context.close()


async def test_copying_in_the_widget_leaves_the_host_page_alone(
    browser: Browser, embedded: Embedded
) -> None:
    # without the clipboard API the copy goes through a hidden text box: inside the widget,
    # never in the host page's body (where none of the widget's styles hide it), and the
    # host page does not scroll to it
    context = await browser.new_context(viewport={"width": 1000, "height": 760})
    await context.add_init_script(
        "Object.defineProperty(navigator, 'clipboard', {value: {writeText: () =>"
        " Promise.reject(new DOMException('denied', 'NotAllowedError'))}});"
    )
    page = await context.new_page()
    await open_widget(page, embedded.host, embedded.citecast.url, "/tall")
    await ask_in_widget(page, "How do I install citecast on Linux?")
    panel = page.locator("#citecast-panel")
    await expect(panel.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    await page.evaluate(
        """() => { window.scrollTo(0, 200); window.hostChanges = 0;
          new MutationObserver(() => window.hostChanges++)
            .observe(document.body, {childList: true}); }"""
    )
    copy = panel.get_by_role("button", name="Copy answer")
    await copy.focus()
    await page.keyboard.press("Enter")
    await expect(panel.locator(".cc-status")).to_have_text("Answer copied to the clipboard.")
    await expect(copy).to_be_focused()
    assert await page.evaluate("[window.hostChanges, window.scrollY]") == [0, 200]
    await context.close()


async def test_the_widget_adds_one_global_name_to_the_host_page(
    browser: Browser, embedded: Embedded
) -> None:
    context = await browser.new_context()
    # the page's globals before any of its scripts runs (widget.js is async: it may run
    # before DOMContentLoaded)
    await context.add_init_script("window.hostGlobals = Object.keys(window);")
    page = await context.new_page()
    await open_widget(page, embedded.host, embedded.citecast.url)
    await ask_in_widget(page, "How do I install citecast on Linux?")
    await expect(page.locator(f"#citecast-panel {ANSWERED}")).to_have_count(1, timeout=20_000)
    added = await page.evaluate(
        "Object.keys(window).filter(k => !window.hostGlobals.includes(k) && k !== 'hostGlobals')"
    )
    assert added == ["Citecast"], added
    await context.close()


async def test_the_panel_is_named_after_the_deployment(browser: Browser, tmp_path: Path) -> None:
    # a screen reader announces the panel by the name it shows (web.title), not "citecast"
    host = await start_live_server(host_site())
    running = await start_citecast(tmp_path, cors_origins=[host.url], title="Acme docs")
    try:
        page = await browser.new_page()
        await open_widget(page, host, running.url)
        await expect(page.locator("#citecast-panel .cc-title")).to_have_text("Acme docs")
        await expect(page.get_by_role("dialog", name="Acme docs")).to_be_visible()
        await page.close()
    finally:
        await running.live.stop()
        running.services.store.close()
        await host.stop()
