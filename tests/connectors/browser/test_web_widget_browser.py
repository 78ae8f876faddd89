"""The embeddable widget on a page from another origin, in real headless Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, expect

from tests.chromium import artifact
from tests.connectors.browser.conftest import start_citecast
from tests.connectors.browser.widget_host import (
    ANSWERED,
    STYLES,
    Embedded,
    ask_in_widget,
    host_site,
    open_widget,
    widget_page,
)
from tests.connectors.web.conftest import start_live_server


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
        await running.stop()
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
        await running.stop()
        await host.stop()


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
