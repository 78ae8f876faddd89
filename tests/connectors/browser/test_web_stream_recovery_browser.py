"""The chat page in headless Chromium when the network drops while an answer streams: the
server goes on writing the answer, so the page checks again, less and less often, until it can
reach the server, then shows the stored answer rather than asking the question twice. A stream
that fails before the server began the answer is explained at once, in words for a visitor."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import ConsoleMessage, Page, Route, expect

from tests.connectors.browser.conftest import RunningCitecast, ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage

QUESTION = "Will this survive a drop?"


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[RunningCitecast]:
    served = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    yield served
    await served.stop()


async def cut_after_start(route: Route) -> None:
    """The stream breaks off after its ``start`` event: the server has begun the answer."""
    response = await route.fetch()
    events = (await response.text()).split("\n\n")
    assert events[0].startswith("event: start"), events
    await route.fulfill(response=response, body=events[0] + "\n\n")


async def test_a_drop_longer_than_one_check_still_shows_the_stored_answer(
    page: Page, running: RunningCitecast
) -> None:
    checks: list[str] = []

    async def offline_for_a_while(route: Route) -> None:
        checks.append(route.request.url)
        if len(checks) <= 2:  # the network is still down for the first two checks
            await route.abort("internetdisconnected")
        else:
            await route.continue_()

    await page.route("**/api/ask/stream?*", cut_after_start)
    await page.route("**/healthz", offline_for_a_while)
    await page.goto(running.url + "/")
    await ask(page, QUESTION)
    status = page.locator(".cc-status")
    await expect(status).to_have_text("The connection was lost; waiting for the server to answer…")
    await expect(page.get_by_role("button", name="Ask", exact=True)).to_be_disabled()
    await expect(page.locator(".cc-answer[aria-busy=false] .cc-body")).to_contain_text(
        "Passage number 1", timeout=15_000
    )
    await expect(status).to_have_text("The answer is ready.")
    await expect(page.locator(".cc-failed")).to_have_count(0)
    assert len(checks) == 3
    # asked once: the stored conversation has the one turn
    turns = running.services.store.turns(
        await page.evaluate("localStorage.getItem('citecast.conversation')")
    )
    assert [turn.question for turn in turns] == [QUESTION]


async def test_a_stream_that_never_began_tells_the_visitor_nothing_to_fix(
    page: Page, running: RunningCitecast
) -> None:
    warnings: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if message.type == "warning":
            warnings.append(message.text)

    page.on("console", heard)
    await page.route("**/api/ask/stream?*", lambda route: route.abort("internetdisconnected"))
    await page.route("**/healthz", lambda route: route.abort("internetdisconnected"))
    await page.goto(running.url + "/")
    await ask(page, QUESTION)
    await expect(page.locator(".cc-failed .cc-error")).to_have_text(
        "Cannot reach the citecast server right now. Please try again in a moment."
    )
    await expect(page.get_by_label("Your question")).to_have_value(QUESTION)
    # what to check is said to whoever runs the site, in the console
    assert warnings == [
        f"citecast: cannot reach the citecast server at {running.url}: check that it is running."
    ], warnings
