"""The chat gives up on a server that takes a request and never answers it, in headless
Chromium against a loopback server that does just that (silent_server.py): the stream that
never starts or stops midway, the conversation that never loads, /api/config that never comes.
Each time the reason is shown, Ask works again and a question asked is back in the box; a
stream that keeps sending its keep-alive comment is waited for."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Page, expect

from tests.connectors.browser.silent_server import Silent, silent_app
from tests.connectors.web.conftest import LiveServer, start_live_server

QUESTION = "How do I install it?"
FAILED = ".cc-answer.cc-failed .cc-error"
WAIT = 10_000  # ms: the bounds in these tests are well under a second


@pytest.fixture
async def silent() -> AsyncIterator[tuple[Silent, LiveServer]]:
    behaviour = Silent()
    live = await start_live_server(silent_app(behaviour))
    yield behaviour, live
    behaviour.release.set()
    await live.stop()


async def ask(page: Page) -> None:
    await page.get_by_label("Your question").fill(QUESTION)
    await page.get_by_label("Your question").press("Enter")


async def assert_given_back(page: Page, reason: str) -> None:
    """The turn failed with ``reason``, Ask works and the question is back in the box."""
    await expect(page.locator(FAILED)).to_have_text(reason, timeout=WAIT)
    await expect(page.get_by_role("button", name="Ask", exact=True)).to_be_enabled()
    await expect(page.get_by_label("Your question")).to_have_value(QUESTION)
    await expect(page.locator(".cc-status")).to_have_text(
        "Not answered; your question is back in the box to ask again."
    )
    await expect(page.locator(".cc-typing")).to_have_count(0)


async def test_a_stream_that_never_starts_is_given_up_on(
    page: Page, silent: tuple[Silent, LiveServer]
) -> None:
    _, live = silent
    await page.goto(live.url + "/?silence=600")
    await ask(page)
    await assert_given_back(page, "The server did not answer within 0.6 seconds. Please try again.")


async def test_a_stream_that_stops_midway_is_given_up_on(
    page: Page, silent: tuple[Silent, LiveServer]
) -> None:
    behaviour, live = silent
    behaviour.stream = "midway"
    await page.goto(live.url + "/?silence=600")
    await ask(page)
    await assert_given_back(
        page,
        "The server stopped sending the answer (nothing for 0.6 seconds). Please try again.",
    )
    # what had streamed is not the answer
    await expect(page.locator(".cc-answer")).not_to_contain_text("Install it")


async def test_keep_alive_comments_keep_a_slow_stream_open(
    page: Page, silent: tuple[Silent, LiveServer]
) -> None:
    """Keep-alives every 0.1 s for 1.5 s: longer than the 0.8 s bound, never silent for it."""
    behaviour, live = silent
    behaviour.stream = "keep-alive"
    await page.goto(live.url + "/?silence=800")
    await ask(page)
    await assert_given_back(page, "The scripted answer ends here.")


async def test_the_bound_follows_the_heartbeat_api_config_gives(
    page: Page, silent: tuple[Silent, LiveServer]
) -> None:
    """No bound set on the page: 3 × the sse_heartbeat of /api/config (0.2 s here)."""
    behaviour, live = silent
    behaviour.config_body = {"sse_heartbeat": 0.2, "title": "Docs from the config"}
    await page.goto(live.url + "/")
    await expect(page.locator(".cc-title")).to_have_text("Docs from the config")
    await ask(page)
    await assert_given_back(page, "The server did not answer within 0.6 seconds. Please try again.")


async def test_a_conversation_that_never_loads_is_given_up_on(
    page: Page, silent: tuple[Silent, LiveServer]
) -> None:
    _, live = silent
    await page.goto(live.url + "/?request=500")
    await page.evaluate("localStorage.setItem('citecast.conversation', 'c-1')")
    await page.reload()
    await expect(page.locator(".cc-status")).to_have_text(
        "The citecast server did not answer within 0.5 seconds, so the conversation could"
        " not be loaded.",
        timeout=WAIT,
    )
    await expect(page.get_by_role("button", name="Ask", exact=True)).to_be_enabled()


async def test_settings_that_never_come_are_said(
    page: Page, silent: tuple[Silent, LiveServer]
) -> None:
    behaviour, live = silent
    behaviour.config = False
    await page.goto(live.url + "/?request=500")
    await expect(page.locator(".cc-status")).to_have_text(
        "The citecast server did not answer within 0.5 seconds; it may not answer"
        " questions either.",
        timeout=WAIT,
    )
    await expect(page.get_by_role("button", name="Ask", exact=True)).to_be_enabled()


async def test_the_widget_gives_up_with_the_bound_its_tag_sets(
    page: Page, silent: tuple[Silent, LiveServer]
) -> None:
    behaviour, live = silent
    behaviour.stream = "midway"
    await page.goto(live.url + "/host?silence=700")
    await page.get_by_role("button", name="Ask citecast").click()
    await ask(page)
    await assert_given_back(
        page,
        "The server stopped sending the answer (nothing for 0.7 seconds). Please try again.",
    )
