"""The streamed answer in headless Chromium whatever the order of its events: a citation that
comes after the text citing it (citecast sends it before, but the client does not rely on
that) still gives its number, already shown, its link and its accessible name while the
answer streams, and the finished answer is the server's."""

from __future__ import annotations

from playwright.async_api import Page, expect

from tests.connectors.browser.scripted_stream import Script, answer_events
from tests.connectors.web.conftest import LiveServer, cited_answer, passage

ANSWER = cited_answer(passage(1), passage(2))
WAIT = 10_000  # ms


async def test_a_citation_after_the_text_citing_it_links_the_number_already_shown(
    scripted: tuple[Script, LiveServer], page: Page
) -> None:
    script, live = scripted
    events = answer_events(ANSWER)
    await page.goto(live.url + "/")
    await page.get_by_label("Your question").fill("How is it set up?")
    await page.get_by_label("Your question").press("Enter")
    script.send("start", {"conversation_id": "c-scripted", "turn_id": 1})
    # both paragraphs, closed and shown, before either citation
    for delta in events.deltas:
        script.send("delta", delta)
    numbers = page.locator(".cc-body sup a")
    await expect(numbers).to_have_count(2, timeout=WAIT)
    await expect(numbers.nth(0)).not_to_have_attribute("aria-label", "Source 1: Guide 1, p. 1")

    # the citations come last, with no more text after them: the numbers shown get them now
    script.send("citation", events.citations[1])
    script.send("citation", events.citations[0])
    for n in (1, 2):
        number = numbers.nth(n - 1)
        await expect(number).to_have_attribute(
            "aria-label", f"Source {n}: Guide {n}, p. {n}, Setup > Linux", timeout=WAIT
        )
        await expect(number).to_have_attribute("href", f"https://docs.example.com/guide-{n}")
        # its tooltip describes it
        tip = await number.get_attribute("aria-describedby")
        assert tip and await page.locator(f"[id='{tip}']").count() == 1
    await expect(page.locator(".cc-answer")).to_have_attribute("aria-busy", "true")

    # the finished answer is the server's, its numbers linked as before
    script.send("done", events.done)
    await expect(page.locator(".cc-answer[aria-busy=false]")).to_have_count(1, timeout=WAIT)
    await expect(numbers).to_have_count(2)
    await expect(numbers.nth(1)).to_have_attribute(
        "aria-label", "Source 2: Guide 2, p. 2, Setup > Linux"
    )
    await expect(page.locator(".cc-status")).to_have_text("Answered with 2 sources.")


async def test_a_citation_between_two_pieces_of_its_paragraph_links_it(
    scripted: tuple[Script, LiveServer], page: Page
) -> None:
    """The open paragraph (``tail``) shows the number before its citation comes."""
    script, live = scripted
    events = answer_events(cited_answer(passage(1), text="Claim 1 is true.[^1]"))
    block = events.deltas[0]["append"]
    await page.goto(live.url + "/")
    await page.get_by_label("Your question").fill("Is it true?")
    await page.get_by_label("Your question").press("Enter")
    script.send("start", {"conversation_id": "c-scripted", "turn_id": 1})
    script.send("delta", {"text": "Claim 1 is true.[^1]", "tail": block})
    number = page.locator(".cc-pending sup a")
    await expect(number).to_have_count(1, timeout=WAIT)
    script.send("citation", events.citations[0])
    await expect(number).to_have_attribute(
        "aria-label", "Source 1: Guide 1, p. 1, Setup > Linux", timeout=WAIT
    )
