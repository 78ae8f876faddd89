"""On the shared answer page (``/turns/{key}``, no scripts), each citation number is described by
its own passage and shows it on keyboard focus, in headless Chromium.

Found in a QA pass: a number's passage was only in its ``title`` (the mouse's), and its
``aria-describedby`` pointed at the source list entry, whose quote is the first claim's, so a
screen reader read the first sentence for the second ``[1]`` too.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import Browser, expect

from bot.grounding import verify
from bot.models import Answer, Citation
from tests.chromium import artifact
from tests.connectors.browser.conftest import serve_answerer
from tests.connectors.web.conftest import CannedAnswerer
from tests.grounding.two_claims import GUIDE, PIP, SQLITE


def grounded(text: str) -> Answer:
    """``text`` citing GUIDE as [^1], checked as citecast checks every answer."""
    return verify(Answer(text=text, citations=(Citation(1, GUIDE, 1),)))


async def test_each_number_is_described_by_and_shows_its_own_passage(
    browser: Browser, tmp_path: Path
) -> None:
    answer = grounded(
        "Install it with pip install citecast [^1].\n\nThe index is a single SQLite file [^1]."
    )
    assert len(answer.citations[0].occurrences) == 2
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    context = await browser.new_context(viewport={"width": 800, "height": 700})
    try:
        page = await context.new_page()
        reply = await page.request.post(
            running.url + "/api/ask", data={"question": "How is it installed?"}
        )
        assert reply.ok, await reply.text()
        await page.goto((await reply.json())["share_url"])
        numbers = page.locator(".cc-body sup a")
        await expect(numbers).to_have_count(2)
        first, second = numbers.nth(0), numbers.nth(1)
        # each number's description is its own claim's passage
        await expect(first).to_have_accessible_description(re.compile(re.escape(PIP)))
        await expect(second).to_have_accessible_description(re.compile(re.escape(SQLITE)))
        for number, other in ((first, SQLITE), (second, PIP)):
            description = await number.evaluate(
                "a => document.getElementById(a.getAttribute('aria-describedby')).textContent"
            )
            assert other not in description, description
        # hidden until a number has keyboard focus, which shows its own passage
        note = page.locator(".cc-cite-note")
        await expect(note).to_have_count(2)
        await expect(note.nth(0)).to_be_hidden()
        await expect(note.nth(1)).to_be_hidden()
        await first.focus()
        await page.keyboard.press("Tab")
        await expect(second).to_be_focused()
        await expect(note.nth(1)).to_be_visible()
        await expect(note.nth(1)).to_contain_text(SQLITE)
        await expect(note.nth(0)).to_be_hidden()
        await page.screenshot(path=str(artifact("share-marker-note.png")))
        # it lies in the answer's flow, below the number's line: nothing of the answer under it
        covered = await note.nth(1).evaluate(
            """note => {
              const box = note.getBoundingClientRect();
              const hit = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
              return note.contains(hit);
            }"""
        )
        assert covered, "the note is not drawn where it lies"
    finally:
        await context.close()
        await running.stop()
