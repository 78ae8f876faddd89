"""The chat page in headless Chromium when the server stops (SIGTERM) mid-answer: it says the
server is restarting and gives the question back, without probing a server that is gone."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import Browser, expect

from bot.connectors.app import build_app
from bot.connectors.web_sse import RESTARTING
from bot.runtime import Services
from bot.store import Store
from tests.connectors.browser.conftest import browser_settings
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, passage
from tests.connectors.web.test_web_shutdown_stream import ServedByCitecast

RETRY_STATUS = "Not answered; your question is back in the box to ask again."


async def test_a_shutdown_mid_answer_says_restarting_and_gives_the_question_back(
    browser: Browser, tmp_path: Path
) -> None:
    gate = asyncio.Event()  # never released: the answer is still being written at SIGTERM
    answerer = CannedAnswerer(cited_answer(passage(1)), gate=gate)
    settings = browser_settings(tmp_path)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    served = ServedByCitecast(build_app(services, connectors=[], shutdown_grace=0.1), 0.1)
    url = await served.start()
    page = await browser.new_page()
    try:
        await page.goto(url + "/")
        box = page.get_by_label("Your question")
        await box.fill("Will this survive a restart?")
        await box.press("Enter")
        await expect(box).to_have_value("")
        while not answerer.calls:  # the question reached the answerer: it is mid-answer
            await asyncio.sleep(0.01)
        served.sigterm()
        reason = page.locator(".cc-failed .cc-error")
        await expect(reason).to_have_text(RESTARTING, timeout=20_000)
        await expect(box).to_have_value("Will this survive a restart?")
        await expect(page.get_by_role("status")).to_have_text(RETRY_STATUS)
        await expect(page.get_by_role("button", name="Ask")).to_be_enabled()
    finally:
        await page.close()
        served.server.should_exit = True
        await served.stopped()
        services.store.close()
