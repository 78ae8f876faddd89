"""The embeddable widget on a page from another origin, in real headless Chromium."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tests.chromium import artifact
from tests.connectors.browser.conftest import start_citecast
from tests.connectors.web.conftest import LiveServer, start_live_server

ANSWERED = ".cc-answer[aria-busy=false]"


WIDGET_JS = Path(__file__).resolve().parents[3] / "bot/connectors/static/widget.js"


def host_site() -> Starlette:
    """Someone else's site that embeds the widget (its citecast URL comes in the query).

    ``/cdn`` embeds the site's own copy of widget.js, pointed at citecast by ``data-api`` and
    with its own ``data-label``.
    """

    def embedding(tag: str) -> Response:
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme support</title>"
            "<style>body{font-family:serif;background:#fafafa} p{color:#d00}</style></head>"
            f"<body><h1>Acme support</h1><p>Our own page, our own styles.</p>{tag}</body></html>"
        )

    async def page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return embedding(f'<script src="{citecast}/widget.js" data-citecast async></script>')

    async def cdn_page(request: Request) -> Response:
        citecast = request.query_params["citecast"]
        return embedding(
            f'<script src="/static/widget.js" data-citecast data-api="{citecast}" '
            'data-label="Ask Acme" async></script>'
        )

    async def widget(request: Request) -> Response:
        return Response(WIDGET_JS.read_text("utf-8"), media_type="text/javascript")

    return Starlette(
        routes=[Route("/", page), Route("/cdn", cdn_page), Route("/static/widget.js", widget)]
    )


async def open_widget(page: Page, host: LiveServer, citecast_url: str) -> None:
    await page.goto(f"{host.url}/?citecast={citecast_url}")
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
        await expect(blocked.locator("#citecast-panel [role=alert]")).to_contain_text(
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
