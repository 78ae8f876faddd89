"""The open widget's panel on a host page: tooltips, votes, copying, globals, in Chromium."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from tests.chromium import artifact
from tests.connectors.browser.conftest import start_citecast
from tests.connectors.browser.widget_host import (
    ANSWERED,
    Embedded,
    ask_in_widget,
    host_site,
    open_widget,
    widget_page,
)
from tests.connectors.web.conftest import start_live_server


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
        await running.stop()
        await host.stop()
