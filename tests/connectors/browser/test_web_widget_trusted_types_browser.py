"""The widget on a host page whose Content-Security-Policy requires Trusted Types
(``require-trusted-types-for 'script'``), in headless Chromium.

Setting a script's URL from a plain string threw there, so the button did nothing at all, with
no word to the visitor or in the console. A page that allows the policy ``citecast``
(``trusted-types citecast``) now gets a working widget; one that does not is told, as for any
other directive that blocks citecast.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import ConsoleMessage, Page, expect

from tests.connectors.browser.host_page import Site, host_and_citecast

BLOCKED = "The chat cannot be used on this page: the site's security settings block it."


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with host_and_citecast(tmp_path) as running:
        yield running


def policy(site: Site, trusted_types: str) -> str:
    """A policy allowing citecast where the console line asks, requiring Trusted Types and
    allowing the policies ``trusted_types``."""
    url = site.citecast.url
    return (
        f"default-src 'none'; script-src {url}; connect-src {url}; style-src {url}; "
        f"require-trusted-types-for 'script'; trusted-types {trusted_types}"
    )


def console_errors(page: Page) -> list[str]:
    said: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if message.type == "error" and message.text.startswith("citecast:"):
            said.append(message.text)

    page.on("console", heard)
    return said


async def test_a_page_that_allows_the_citecast_policy_gets_answers(page: Page, site: Site) -> None:
    said = console_errors(page)
    await page.goto(site.url(csp=policy(site, "citecast")))
    await page.get_by_role("button", name="Ask citecast").click()
    box = page.locator("#citecast-panel .cc-input")
    await box.fill("How do I install it?")
    await box.press("Enter")
    panel = page.locator("#citecast-panel")
    await expect(panel.locator(".cc-status")).to_have_text("Answered with 1 source.")
    # the answer's HTML went in (through the policy), its citation decorated
    await expect(panel.locator(".cc-answer .cc-body sup.cc-cite a")).to_have_count(1)
    assert said == []


async def test_a_page_that_leaves_the_citecast_policy_out_is_told(page: Page, site: Site) -> None:
    said = console_errors(page)
    await page.goto(site.url(csp=policy(site, "acme")))
    await page.get_by_role("button", name="Ask citecast").click()
    await expect(page.locator("#citecast-panel [role=alert]")).to_have_text(BLOCKED)
    assert len(said) == 1, said
    assert said[0].startswith("citecast: this page's Content-Security-Policy blocks the widget")
    assert "Trusted Types" in said[0] and "trusted-types" in said[0], said
