"""The widget on host pages whose own markup and styles reach further than its host element,
in headless Chromium: rules on <body> that make it the box fixed elements are placed in, a
right-to-left page, ``div:empty``, forced colours, the page's language, and a timeout written
in seconds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, ConsoleMessage, Page, expect

from tests.connectors.browser.host_page import Site, host_and_citecast

LAUNCHER = "Ask citecast"
ANSWERED = "#citecast-panel .cc-answer[aria-busy=false]"


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with host_and_citecast(tmp_path) as running:
        yield running


@pytest.fixture
async def window(browser: Browser) -> AsyncIterator[Page]:
    """A page in a 900 x 640 window of its own."""
    context = await browser.new_context(viewport={"width": 900, "height": 640})
    yield await context.new_page()
    await context.close()


async def launcher_corner(page: Page) -> dict[str, float]:
    """How far the button is from the window's right and bottom edges."""
    corner: dict[str, float] = await page.evaluate(
        """() => {
          const r = document.querySelector('#citecast-widget').shadowRoot
            .querySelector('.cc-launcher').getBoundingClientRect();
          return {right: innerWidth - r.right, bottom: innerHeight - r.bottom};
        }"""
    )
    return corner


# Each of these makes <body> the containing block of its position: fixed descendants.
BODY_RULES = [
    "body {transform: translateZ(0)}",
    "body {filter: saturate(1.1)}",
    "body {will-change: transform}",
    "body {perspective: 500px}",
    "body {backdrop-filter: blur(1px)}",
    "body {contain: paint}",
]


@pytest.mark.parametrize("rule", BODY_RULES)
async def test_rules_on_body_leave_the_button_in_the_windows_corner(
    window: Page, site: Site, rule: str
) -> None:
    await window.goto(site.url(style=rule))
    launcher = window.get_by_role("button", name=LAUNCHER)
    await expect(launcher).to_be_in_viewport(ratio=1)
    assert await launcher_corner(window) == {"right": 20, "bottom": 20}
    await window.mouse.wheel(0, 1500)  # and it stays there as the page scrolls
    await window.wait_for_function("() => scrollY > 0")
    assert await launcher_corner(window) == {"right": 20, "bottom": 20}
    await launcher.click()
    await expect(window.locator("#citecast-panel")).to_be_in_viewport(ratio=1)


async def test_a_rule_hiding_empty_divs_leaves_the_widget(window: Page, site: Site) -> None:
    await window.goto(site.url(style="div:empty {display: none}"))
    await expect(window.get_by_role("button", name=LAUNCHER)).to_be_in_viewport(ratio=1)
    # the documented selector still reaches it
    assert await window.evaluate("() => !!document.querySelector('#citecast-widget').shadowRoot")


async def test_a_right_to_left_page_does_not_mirror_the_widget(window: Page, site: Site) -> None:
    await window.goto(site.url(lang="ar", dir="rtl", style="body {direction: rtl}"))
    await window.get_by_role("button", name=LAUNCHER).click()
    panel = window.locator("#citecast-panel")
    await expect(panel.locator(".cc-input")).to_be_focused()
    layout: dict[str, Any] = await window.evaluate(
        """() => {
          const shadow = document.querySelector('#citecast-widget').shadowRoot;
          const panel = shadow.querySelector('.cc-panel').getBoundingClientRect();
          const close = shadow.querySelector('.cc-close').getBoundingClientRect();
          const title = shadow.querySelector('.cc-title').getBoundingClientRect();
          return {panel: getComputedStyle(shadow.querySelector('.cc-panel')).direction,
                  launcher: getComputedStyle(shadow.querySelector('.cc-launcher')).direction,
                  closeOnTheRight: close.right > panel.right - 40,
                  titleOnTheLeft: title.left < panel.left + 80};
        }"""
    )
    assert layout == {
        "panel": "ltr",
        "launcher": "ltr",
        "closeOnTheRight": True,
        "titleOnTheLeft": True,
    }, layout
    # what is typed and answered still reads in its own direction
    await expect(panel.locator(".cc-input")).to_have_attribute("dir", "auto")


async def test_forced_colours_draw_the_buttons_edges(window: Page, site: Site) -> None:
    await window.emulate_media(forced_colors="active")
    await window.goto(site.url())
    launcher = window.get_by_role("button", name=LAUNCHER)
    await launcher.click()
    ask = window.locator("#citecast-panel").get_by_role("button", name="Ask", exact=True)
    await expect(ask).to_be_visible()
    for button in (launcher, ask):
        width = await button.evaluate("b => getComputedStyle(b).borderTopWidth")
        style = await button.evaluate("b => getComputedStyle(b).borderTopStyle")
        assert (width, style) == ("2px", "solid"), (width, style)


async def heading_names(page: Page) -> list[str]:
    """The accessible names of the page's headings, as Chromium gives them to screen readers."""
    cdp = await page.context.new_cdp_session(page)
    tree = await cdp.send("Accessibility.getFullAXTree")
    return [
        node["name"]["value"]
        for node in tree["nodes"]
        if node.get("role", {}).get("value") == "heading" and "name" in node
    ]


async def ask_in_panel(page: Page, question: str) -> None:
    await page.get_by_role("button", name=LAUNCHER).click()
    box = page.locator("#citecast-panel .cc-input")
    await expect(box).to_be_focused()
    await box.fill(question)
    await box.press("Enter")
    await expect(page.locator(ANSWERED)).to_have_count(1)


async def test_questions_and_answers_take_the_host_pages_language(window: Page, site: Site) -> None:
    await window.goto(site.url(lang="fr"))
    await ask_in_panel(window, "Comment installer citecast ?")
    langs: dict[str, Any] = await window.evaluate(
        """() => {
          const shadow = document.querySelector('#citecast-widget').shadowRoot;
          const lang = (node) => node.closest('[lang]').getAttribute('lang');
          const question = shadow.querySelector('.cc-question span[dir=auto]');
          const sr = shadow.querySelector('.cc-question .cc-sr');
          const heading = shadow.querySelector('.cc-body .sources-title');
          return {question: lang(question), body: lang(shadow.querySelector('.cc-body')),
                  youAsked: lang(sr), actions: lang(shadow.querySelector('.cc-actions')),
                  heading: lang(heading),
                  askedInHeading: lang(heading.querySelector('.cc-sr[dir=auto]'))};
        }"""
    )
    assert langs == {
        "question": "fr",
        "body": "fr",
        "youAsked": "en",
        "actions": "en",
        "heading": "en",
        "askedInHeading": "fr",
    }, langs


async def test_a_page_without_a_language_leaves_the_answers_unmarked(
    window: Page, site: Site
) -> None:
    await window.goto(site.url(lang=""))
    await ask_in_panel(window, "How do I install it?")
    body = window.locator("#citecast-panel .cc-body")
    await expect(body).to_have_attribute("lang", "")  # unknown, not the widget's English


async def test_the_source_lists_name_keeps_the_questions_letter_case(
    window: Page, site: Site
) -> None:
    await window.goto(site.url())
    await ask_in_panel(window, "How do I install it?")
    names = [name for name in await heading_names(window) if "for answer" in name]
    # the visible "Sources" is in small capitals (CSS), which keep the words as written
    assert names == ["Sources for answer 1: How do I install it?"], names


async def test_a_timeout_written_in_seconds_is_read_as_seconds(window: Page, site: Site) -> None:
    warnings: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if message.type == "warning":
            warnings.append(message.text)

    window.on("console", heard)
    await window.goto(site.url(attrs='data-request-timeout="30"'))
    await ask_in_panel(window, "How do I install it?")
    status = window.locator("#citecast-panel .cc-status")
    await expect(status).to_have_text("Answered with 1 source.")
    said = [w for w in warnings if "data-request-timeout" in w]
    assert said == [
        'citecast: data-request-timeout="30" is in milliseconds; so short a wait must mean '
        'seconds, so it is read as 30000 ms. Write data-request-timeout="30000".'
    ], warnings
