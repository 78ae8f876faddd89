"""The chat page and the shared answer page as a screen reader and a keyboard meet them, in real
headless Chromium: names and descriptions are read from Chromium's own accessibility tree
(the DevTools protocol), not computed by the test.

One answer serves every test: two cited sources, the second weakly supported (``[2?]``),
enough paragraphs to scroll on a phone, a wide table and a wide code block.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from bot.models import Answer, Citation
from tests.connectors.browser.conftest import RunningCitecast, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
QUESTION = "Is it true?"
PARAGRAPHS = "\n\n".join(
    f"Claim {i} is true, and this sentence is long enough to wrap on a phone.[^{1 + i % 2}]"
    for i in range(1, 9)
)
WIDE = "x" * 12
TABLE = "| " + " | ".join(f"Column{i}{WIDE}" for i in range(8)) + " |\n|" + "---|" * 8 + "\n"
TABLE += "| " + " | ".join(f"Value{i}{WIDE}" for i in range(8)) + " |\n"
CODE = "```\n" + "print('" + "a very long line of code " * 12 + "')\n```\n"
TEXT = PARAGRAPHS + "\n\n" + TABLE + "\n" + CODE


def weak_answer() -> Answer:
    one, two = passage(1), passage(2)
    return Answer(
        text=TEXT,
        citations=(
            Citation(n=1, source=one, source_number=1, quote=one.text),
            Citation(n=2, source=two, source_number=2, quote=two.text, support=0.1),
        ),
    )


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[RunningCitecast]:
    served = await serve_answerer(tmp_path, CannedAnswerer(weak_answer(), chunk=40))
    yield served
    await served.stop()


async def answered(browser: Browser, running: RunningCitecast, **context: Any) -> Page:
    """A page of its own context with the answer shown."""
    page = await (await browser.new_context(**context)).new_page()
    await page.goto(running.url + "/")
    await page.get_by_label("Your question").fill(QUESTION)
    await page.get_by_label("Your question").press("Enter")
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    return page


async def ax(page: Page, expression: str) -> dict[str, str]:
    """Chromium's role, name and description of the element ``expression`` evaluates to."""
    cdp = await page.context.new_cdp_session(page)
    try:
        found = await cdp.send("Runtime.evaluate", {"expression": expression})
        object_id = found["result"]["objectId"]
        tree = await cdp.send(
            "Accessibility.getPartialAXTree", {"objectId": object_id, "fetchRelatives": False}
        )
    finally:
        await cdp.detach()
    node = tree["nodes"][0]
    return {key: str(node.get(key, {}).get("value", "")) for key in ("role", "name", "description")}


def marker(n: int, where: str = "") -> str:
    return f"document.querySelector('{where} .cc-body sup a[data-n=\"{n}\"]')"


async def share_url(page: Page) -> str:
    url: str = await page.evaluate(
        "fetch('/api/conversations/' + localStorage.getItem('citecast.conversation'))"
        ".then(r => r.json()).then(d => d.turns[0].share_url)"
    )
    return url


async def test_a_weak_citation_says_so_in_its_name_and_its_tooltip(
    browser: Browser, running: RunningCitecast
) -> None:
    page = await answered(browser, running)
    try:
        strong = await ax(page, marker(1))
        weak = await ax(page, marker(2))
        assert strong["name"] == "Source 1: Guide 1, p. 1, Setup > Linux", strong
        assert weak["name"] == "Source 2 (weakly supported): Guide 2, p. 2, Setup > Linux", weak
        link = page.locator(".cc-body sup.weak a").first
        await expect(link).to_have_text("[2?]")
        await link.focus()
        described = (await link.get_attribute("aria-describedby") or "").split()
        tip = page.locator(f"[id='{described[0]}']")
        await expect(tip).to_be_visible()
        await expect(tip.locator(".cc-tip-weak")).to_have_text(
            "Weakly supported (the “?”): the passage may not fully back this claim."
        )
        assert "Weakly supported" in weak["description"], weak
        # a citation that is not weak says nothing of the kind
        assert "weakly" not in (strong["name"] + strong["description"]).lower(), strong
    finally:
        await page.context.close()


async def test_source_headings_keep_their_words_and_the_shared_page_names_its_citations(
    browser: Browser, running: RunningCitecast
) -> None:
    page = await answered(browser, running)
    try:
        heading = await ax(page, "document.querySelector('.cc-body .sources-title')")
        assert heading["role"] == "heading"
        assert heading["name"] == f"Sources for answer 1: {QUESTION}", heading

        await page.goto(await share_url(page))
        shared = await ax(page, "document.querySelector('.sources-title')")
        assert shared["name"] == "Sources", shared
        strong = await ax(page, marker(1))
        weak = await ax(page, marker(2))
        assert strong["name"] == "Source 1: Guide 1, p. 1, Setup > Linux", strong
        assert weak["name"] == "Source 2 (weakly supported): Guide 2, p. 2, Setup > Linux", weak
        hover = await page.locator(".cc-body sup.weak a").first.get_attribute("title")
        assert hover and hover.startswith("Weakly supported"), hover
        # and the way back to the chat
        back = page.get_by_role("link", name="Ask a question in the chat")
        await back.click()
        await expect(page.get_by_label("Your question")).to_be_visible()
        assert page.url == running.url + "/", page.url
    finally:
        await page.context.close()


async def test_in_forced_colours_the_tooltip_and_the_question_keep_an_edge(
    browser: Browser, running: RunningCitecast
) -> None:
    page = await answered(browser, running)
    try:
        await page.emulate_media(forced_colors="active")
        link = page.locator(".cc-body sup a").first
        await link.focus()
        tip = page.locator(".cc-tooltip:not([hidden])")
        await expect(tip).to_be_visible()
        for node in (tip, page.locator(".cc-question").first):
            style, width = await node.evaluate(
                "n => [getComputedStyle(n).borderTopStyle, getComputedStyle(n).borderTopWidth]"
            )
            assert (style, width) == ("solid", "1px"), await node.evaluate("n => n.className")
    finally:
        await page.context.close()


async def test_a_tooltip_near_the_question_box_opens_above_its_number(
    browser: Browser, running: RunningCitecast
) -> None:
    page = await answered(browser, running, viewport={"width": 320, "height": 640})
    try:
        link = page.locator(".cc-body p sup a").last
        # the number just above the sticky question box, as when reading down the answer
        await link.evaluate(
            """a => {
              const form = document.querySelector('.cc-form').getBoundingClientRect();
              window.scrollBy(0, a.getBoundingClientRect().bottom - form.top + 12);
            }"""
        )
        await link.hover()
        tip = page.locator(".cc-tooltip:not([hidden])")
        await expect(tip).to_be_visible()
        box = await tip.bounding_box()
        number = await link.bounding_box()
        form = await page.locator(".cc-form").bounding_box()
        assert box and number and form
        assert box["y"] >= 0, box
        assert box["y"] + box["height"] <= number["y"], (box, number)
        assert box["y"] + box["height"] <= form["y"], (box, form)
        # the pointer crosses onto it unbroken and it stays (WCAG 1.4.13)
        await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 4, steps=8)
        await expect(tip).to_be_visible()
        # the same number higher up, with room below it, opens below it
        await page.mouse.move(0, 0)
        await expect(tip).to_be_hidden()
        await link.evaluate("a => window.scrollBy(0, a.getBoundingClientRect().top - 150)")
        await link.hover()
        await expect(tip).to_be_visible()
        shown = await tip.bounding_box()
        above = await link.bounding_box()
        assert shown and above and shown["y"] >= above["y"] + above["height"], (shown, above)
    finally:
        await page.context.close()


async def test_wide_code_and_tables_scroll_from_the_keyboard(
    browser: Browser, running: RunningCitecast
) -> None:
    page = await answered(browser, running, viewport={"width": 375, "height": 740})
    try:
        for where in ("chat", "shared page"):
            if where == "shared page":
                await page.goto(await share_url(page))
            for selector, role, name in (
                (".cc-body pre", "region", "Code"),
                (".cc-body table", "table", "Table"),
            ):
                block = page.locator(selector)
                assert await block.get_attribute("tabindex") == "0", (where, selector)
                seen = await ax(page, f"document.querySelector('{selector}')")
                assert (seen["role"], seen["name"]) == (role, name), (where, seen)
                await block.focus()
                await expect(block).to_be_focused()
                await page.keyboard.press("ArrowRight")
                await page.wait_for_function(
                    "s => document.querySelector(s).scrollLeft > 0", arg=selector
                )
    finally:
        await page.context.close()


async def test_links_that_open_a_new_tab_say_so(browser: Browser, running: RunningCitecast) -> None:
    page = await answered(browser, running)
    try:
        citation = await ax(page, marker(1))
        assert citation["description"].endswith("Opens in a new tab."), citation
        assert "Passage number 1" in citation["description"], citation  # the tooltip still
        listed = await ax(page, "document.querySelector('.cc-body ol.sources a[target=_blank]')")
        assert listed["description"] == "Opens in a new tab.", listed
        # every link that opens a new tab, and no other, is described so
        said = await page.evaluate(
            """() => Array.from(document.querySelectorAll('.cc-chat a[href]')).map(a =>
                 [a.target === '_blank',
                  (a.getAttribute('aria-describedby') || '').split(' ').some(id =>
                    ((document.getElementById(id) || {}).textContent || '')
                      .endsWith('Opens in a new tab.'))])"""
        )
        assert said and all(new_tab == described for new_tab, described in said), said
        assert await page.locator(".cc-new-tab-note").count() == 1
    finally:
        await page.context.close()
