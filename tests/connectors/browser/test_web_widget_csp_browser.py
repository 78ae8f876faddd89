"""The widget where the page itself keeps it from citecast, in headless Chromium: a host page
whose Content-Security-Policy leaves citecast out of connect-src or style-src, and a page
opened from a file. The widget says what is wrong (to the visitor without asking them to fix
the site, to whoever runs it in the console), never blames web.cors_origins for it, and is not
drawn without its styles."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, ConsoleMessage, Page, expect

from tests.connectors.browser.host_page import Site, embedding_page, host_and_citecast

BLOCKED = "The chat cannot be used on this page: the site's security settings block it."


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with host_and_citecast(tmp_path) as running:
        yield running


@pytest.fixture
async def errors(page: Page) -> list[str]:
    """The console errors ``page`` logs."""
    said: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if message.type == "error":
            said.append(message.text)

    page.on("console", heard)
    return said


def policy(site: Site, *, connect: str, style: str) -> str:
    return (
        f"default-src 'none'; script-src {site.citecast.url}; "
        f"connect-src {connect}; style-src {style}"
    )


def needs(site: Site, directive: str) -> str:
    return (
        f"citecast: this page's Content-Security-Policy blocks the widget ({directive}). "
        f"It must allow {site.citecast.url} in script-src, style-src and connect-src."
    )


async def test_a_csp_without_citecast_in_connect_src_is_named(
    page: Page, site: Site, errors: list[str]
) -> None:
    csp = policy(site, connect="'self'", style=site.citecast.url)
    await page.goto(site.url(csp=csp))
    await page.get_by_role("button", name="Ask citecast").click()
    panel = page.locator("#citecast-panel")
    await expect(panel.locator(".cc-status")).to_have_text(BLOCKED)
    await panel.locator(".cc-input").fill("How do I install it?")
    await panel.locator(".cc-input").press("Enter")
    await expect(panel.locator(".cc-failed .cc-error")).to_have_text(BLOCKED)
    await expect(panel).not_to_contain_text("cors_origins")
    assert [e for e in errors if e.startswith("citecast:")] == [needs(site, "connect-src")]


async def test_a_csp_without_citecast_in_style_src_keeps_the_widget_hidden(
    page: Page, site: Site, errors: list[str]
) -> None:
    csp = policy(site, connect=site.citecast.url, style="'unsafe-inline'")
    await page.goto(site.url(csp=csp))
    await expect(page.locator("#citecast-widget")).to_be_attached()
    await page.wait_for_function(
        "() => !!window.Citecast && !!window.Citecast.blocked"
        " && !!window.Citecast.blocked['style-src']"
    )
    # not drawn unstyled in the page's flow: not there at all
    await expect(page.get_by_role("button", name="Ask citecast")).to_be_hidden()
    assert [e for e in errors if e.startswith("citecast:")] == [needs(site, "style-src")]


async def test_a_page_opened_from_a_file_is_told_to_be_served(
    page: Page, site: Site, tmp_path: Path
) -> None:
    file = tmp_path / "shop.html"
    file.write_text(embedding_page(site.citecast.url), "utf-8")
    await page.goto(file.as_uri())
    await page.get_by_role("button", name="Ask citecast").click()
    status = page.locator("#citecast-panel .cc-status")
    await expect(status).to_have_text(
        f"Cannot reach the citecast server at {site.citecast.url} from a page opened as "
        "file://…: the widget works only on a page served over http or https, whose address "
        "web.cors_origins lists."
    )
    await expect(status).not_to_contain_text("null")


async def test_a_csp_that_allows_citecast_where_it_must_lets_the_widget_answer(
    browser: Browser, site: Site
) -> None:
    # what the console line asks for is enough: the same policy with citecast in all three
    page = await browser.new_page()
    try:
        url = site.citecast.url
        await page.goto(site.url(csp=policy(site, connect=url, style=url)))
        await page.get_by_role("button", name="Ask citecast").click()
        box = page.locator("#citecast-panel .cc-input")
        await box.fill("How do I install it?")
        await box.press("Enter")
        await expect(page.locator("#citecast-panel .cc-status")).to_have_text(
            "Answered with 1 source."
        )
    finally:
        await page.close()
