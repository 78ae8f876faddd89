"""Each answer's source list as a screen reader lists it, in headless Chromium: in a long
conversation every answer has one, so a list named only "Sources" is many entries of one
name. Each is named after its answer ("Sources for answer 2: <question>") and none is a
landmark (a landmark per answer would crowd the page's few main parts out of the landmark
list); the list the page builds itself, for an answer whose HTML has none, is named the same
way."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from playwright.async_api import Browser, Page, expect

from tests.connectors.browser.conftest import ask, serve_answerer
from tests.connectors.browser.scripted_stream import Script, answer_events
from tests.connectors.browser.widget_host import own_host_page
from tests.connectors.web.conftest import CannedAnswerer, LiveServer, cited_answer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
CONTROLS: tuple[Literal["button", "link", "textbox"], ...] = ("button", "link", "textbox")
WAIT = 20_000
QUESTIONS = ("How do I install it?", "And how do I upgrade it?")
LONG_QUESTION = "Where " + "exactly " * 12 + "is it?"  # longer than the name repeats


async def landmarks(page: Page) -> list[str]:
    """The landmark roles in the page's accessibility tree named like a source list."""
    tree = await page.locator("body").aria_snapshot()
    return re.findall(r"- (region|navigation|complementary) \"Sources[^\"]*\"", tree)


async def test_two_answers_source_lists_have_names_of_their_own(
    browser: Browser, tmp_path: Path
) -> None:
    answer = cited_answer(passage(1), passage(2))
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    page = await browser.new_page()
    try:
        await page.goto(running.url + "/")
        for n, question in enumerate(QUESTIONS, 1):
            await ask(page, question)
            await expect(page.locator(ANSWERED)).to_have_count(n, timeout=WAIT)
        names = [f"Sources for answer {n}: {q}" for n, q in enumerate(QUESTIONS, 1)]
        # the heading a screen reader's list of headings shows, and the list it names
        for name in names:
            await expect(page.get_by_role("heading", name=name, exact=True)).to_have_count(1)
            await expect(page.get_by_role("list", name=name, exact=True)).to_have_count(1)
        # seen, the heading still says just "Sources"
        await expect(page.locator(".sources-title").first).to_have_text(re.compile(r"^Sources\b"))
        assert (
            await page.locator(".sources-title").first.evaluate("h => h.firstChild.textContent")
            == "Sources"
        )
        assert await landmarks(page) == []

        # a long question is cut short in the name; a reload names the stored turns the same
        await ask(page, LONG_QUESTION)
        await expect(page.locator(ANSWERED)).to_have_count(3, timeout=WAIT)
        third = "Sources for answer 3: " + LONG_QUESTION[:60] + "…"
        await expect(page.get_by_role("heading", name=third, exact=True)).to_have_count(1)
        await page.reload()
        await expect(page.locator(ANSWERED)).to_have_count(3, timeout=WAIT)
        for name in [*names, third]:
            await expect(page.get_by_role("list", name=name, exact=True)).to_have_count(1)
        assert await landmarks(page) == []
    finally:
        await page.close()
        await running.stop()


async def test_the_widgets_source_lists_have_names_of_their_own(
    browser: Browser, tmp_path: Path
) -> None:
    answer = cited_answer(passage(1))
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    page = await browser.new_page()
    try:
        # the widget served from citecast's own origin, on a page of its own
        host = await own_host_page(page, running.url)
        await page.goto(host)
        await page.get_by_role("button", name="Ask citecast").click()
        for n, question in enumerate(QUESTIONS, 1):
            await ask(page, question)
            await expect(page.locator(ANSWERED)).to_have_count(n, timeout=WAIT)
        for n, question in enumerate(QUESTIONS, 1):
            name = f"Sources for answer {n}: {question}"
            await expect(page.get_by_role("list", name=name, exact=True)).to_have_count(1)
            # below the panel's own heading (an h2: the host page has the h1), not its equal
            heading = page.get_by_role("heading", name=name, exact=True, level=3)
            await expect(heading).to_have_count(1)
        await expect(page.get_by_role("heading", level=2)).to_have_count(1)
        await expect(page.get_by_role("heading", level=3)).to_have_count(2)
        assert await landmarks(page) == []
    finally:
        await page.close()
        await running.stop()


async def test_a_source_list_the_page_builds_is_named_after_its_answer(
    scripted: tuple[Script, LiveServer], page: Page
) -> None:
    # an answer whose HTML has no source list of its own gets one built from its citations
    script, live = scripted
    events = answer_events(cited_answer(passage(1), passage(2)))
    done = dict(events.done, html=str(events.done["html"]).split('<section class="sources"')[0])
    await page.goto(live.url + "/")
    for n, question in enumerate(QUESTIONS, 1):
        await ask(page, question)
        script.send("start", {"conversation_id": "c-scripted", "turn_id": n})
        script.send("done", dict(done, turn_id=n))
        script.end()
        await expect(page.locator(ANSWERED)).to_have_count(n, timeout=WAIT)
    await expect(page.locator(".cc-sources")).to_have_count(2)
    for n, question in enumerate(QUESTIONS, 1):
        name = f"Sources for answer {n}: {question}"
        await expect(page.get_by_role("heading", name=name, exact=True)).to_have_count(1)
        await expect(page.get_by_role("list", name=name, exact=True)).to_have_count(1)
    # the page's title is its h1: the lists' headings come next, at level 2, skipping none
    await expect(page.get_by_role("heading", level=2)).to_have_count(2)
    await expect(page.get_by_role("heading", level=3)).to_have_count(0)
    assert await landmarks(page) == []


async def test_every_control_around_an_answer_has_a_name(browser: Browser, tmp_path: Path) -> None:
    # buttons (ask, new conversation, copy, share, votes, close), links (citations, sources)
    # and the question box, on the page and in the widget's panel and button
    running = await serve_answerer(tmp_path, CannedAnswerer(cited_answer(passage(1), passage(2))))
    page = await browser.new_page()
    try:
        host = await own_host_page(page, running.url)
        for url, opener in ((running.url + "/", None), (host, "Ask citecast")):
            await page.goto(url)
            if opener:
                await page.get_by_role("button", name=opener).click()
            await ask(page, QUESTIONS[0])
            await expect(page.locator(ANSWERED)).to_have_count(1, timeout=WAIT)
            controls = [
                control for role in CONTROLS for control in await page.get_by_role(role).all()
            ]
            assert len(controls) >= 10
            for control in controls:
                await expect(control).to_have_accessible_name(re.compile(r"\w"))
            # a citation is named for its source, not just its number
            await expect(page.locator(f"{ANSWERED} sup a").first).to_have_accessible_name(
                "Source 1: Guide 1, p. 1, Setup > Linux"
            )
    finally:
        await page.close()
        await running.stop()
