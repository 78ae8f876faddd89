"""The source list's links as a screen reader lists them, out of context, in headless Chromium:
two records' action links both showing "See plan", and two passages of one document both
showing its title, are named apart (WCAG 2.4.9), each name beginning with the words shown
(WCAG 2.5.3)."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from bot.models import RecordAction, Source
from tests.connectors.browser.conftest import ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, cited_answer

ANSWERED = ".cc-answer[aria-busy=false]"
GUIDE = "Getting started with citecast"


def plan(key: str, name: str) -> Source:
    return Source(
        id=f"plan-{key}",
        title=name,
        kind="record",
        key=key,
        label=name,
        columns={"price": "19"},
        text=f"{name}: price 19",
        action=RecordAction("See plan", f"https://example.com/pricing/{key}"),
    )


def guide(section: str, n: int) -> Source:
    return Source(
        id=f"guide-{n}",
        title=GUIDE,
        url=f"https://docs.example.com/start#{n}",
        section=section,
        text=f"The {section} steps are these.",
    )


async def test_links_that_show_the_same_words_have_names_of_their_own(
    browser: Browser, tmp_path: Path
) -> None:
    sources = (plan("TEAM", "Team"), plan("PRO", "Pro"), guide("Install", 3), guide("Upgrade", 4))
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(*sources)))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        await ask(page, "Which plan, and how do I start?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        links = page.locator(f"{ANSWERED} ol.sources a")
        await expect(links).to_have_count(4)
        shown = [text.strip() for text in await links.all_inner_texts()]
        assert shown == ["See plan", "See plan", GUIDE, GUIDE]
        names = ["See plan: Team", "See plan: Pro", f"{GUIDE}, Install", f"{GUIDE}, Upgrade"]
        for n, name in enumerate(names):
            await expect(links.nth(n)).to_have_accessible_name(name)
            # found by its name in the page's links, as a links list finds it: once
            await expect(page.get_by_role("link", name=name, exact=True)).to_have_count(1)
        # the new-tab note still describes each (sources.js), after the name
        await expect(links.nth(0)).to_have_accessible_description("Opens in a new tab.")
    finally:
        await page.close()
        await running.stop()
