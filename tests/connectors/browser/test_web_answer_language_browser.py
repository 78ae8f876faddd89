"""``assistant.language`` in headless Chromium: on the chat page and in the widget (whatever its
host page's language) each question, answer and source list is marked as in that language, so
a screen reader reads it in that voice; the chat's own words ("You asked", "Sources for answer
1") stay English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, expect

from bot.config_file import parse_settings
from bot.runtime import Services
from bot.store import Store
from tests.connectors.browser.conftest import RunningCitecast, ask
from tests.connectors.browser.host_page import Site, host_site
from tests.connectors.web.conftest import (
    CannedAnswerer,
    cited_answer,
    passage,
    start_live_server,
)

LANGS = """(root) => {
  const lang = (node) => node.closest('[lang]').getAttribute('lang');
  const heading = root.querySelector('.cc-body .sources-title');
  return {question: lang(root.querySelector('.cc-question span[dir=auto]')),
          youAsked: lang(root.querySelector('.cc-question .cc-sr')),
          answer: lang(root.querySelector('.cc-body p')),
          heading: lang(heading),
          title: lang(root.querySelector('.cc-body ol.sources a'))};
}"""
MARKED = {"question": "de", "youAsked": "en", "answer": "de", "heading": "en", "title": "de"}


async def serve_german(tmp_path: Path, **web: Any) -> RunningCitecast:
    from bot.connectors.app import build_app

    settings = parse_settings(
        {
            "index": {"path": str(tmp_path / "index.db")},
            "store": {"path": str(tmp_path / "store.db")},
            "assistant": {"language": "de"},
            "web": {
                "file_secret": "browser-test-secret-0123456789",
                "suggested_prompts": ["Wie lange habe ich Zeit?"],
                **web,
            },
        }
    )
    answerer = CannedAnswerer(cited_answer(passage(1), text="So geht es.[^1]\n"))
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    live = await start_live_server(build_app(services, connectors=[], shutdown_grace=1))
    return RunningCitecast(services, live)


async def test_the_chat_page_marks_questions_and_answers(browser: Browser, tmp_path: Path) -> None:
    running = await serve_german(tmp_path)
    page: Page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        prompt = page.get_by_role("button", name="Wie lange habe ich Zeit?")
        await expect(prompt).to_have_attribute("lang", "de")
        await ask(page, "Wie installiere ich es?")
        await expect(page.locator(".cc-answer[aria-busy=false]")).to_have_count(1)
        assert await page.locator(".cc-chat").evaluate(LANGS) == MARKED
    finally:
        await page.context.close()
        await running.stop()


async def test_the_widget_on_a_french_page_marks_them_in_the_configured_language(
    browser: Browser, tmp_path: Path
) -> None:
    host = await start_live_server(host_site())
    running = await serve_german(tmp_path, cors_origins=[host.url])
    page = await browser.new_page()
    try:
        await page.goto(Site(host, running).url(lang="fr"))
        await page.get_by_role("button", name="Ask citecast").click()
        box = page.locator("#citecast-panel .cc-input")
        await expect(box).to_be_focused()
        prompt = page.get_by_role("button", name="Wie lange habe ich Zeit?")
        await expect(prompt).to_have_attribute("lang", "de")
        await box.fill("Wie installiere ich es?")
        await box.press("Enter")
        await expect(page.locator("#citecast-panel .cc-answer[aria-busy=false]")).to_have_count(1)
        panel = page.locator("#citecast-panel")
        assert await panel.evaluate(LANGS) == MARKED
    finally:
        await page.context.close()
        await running.stop()
        await host.stop()
