"""The chat page in real headless Chromium over the sample knowledge base.

One scenario per test, each asking the real extractive Assistant a question the sample
knowledge base answers: streamed answer, superscript citations, tooltips on hover and keyboard
focus, the source list, following a citation, reload with the same numbers, copy, errors.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.chromium import artifact
from tests.connectors.browser.conftest import (
    RunningCitecast,
    ask,
    publish_screenshot,
    start_citecast,
)

QUESTION = "How do I install citecast on Linux?"
ANSWERED = ".cc-answer[aria-busy=false]"


async def answered_page(browser: Browser, citecast: RunningCitecast, question: str) -> Page:
    """A new page of the chat that asked ``question`` and shows the finished answer."""
    page = await browser.new_page()
    await page.goto(citecast.url + "/")
    await ask(page, question)
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    return page


async def citation_numbers(page: Page) -> list[str]:
    return await page.locator(f"{ANSWERED} .cc-body sup a").all_inner_texts()


async def source_list(page: Page) -> list[str]:
    return await page.locator(f"{ANSWERED} ol.sources > li").all_inner_texts()


async def test_ask_hover_follow_and_reload(browser: Browser, citecast: RunningCitecast) -> None:
    context = await browser.new_context(viewport={"width": 1100, "height": 860})
    page = await context.new_page()
    console_errors: list[str] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    await page.goto(citecast.url + "/")
    await expect(page.get_by_role("heading", name="citecast")).to_be_visible()
    await ask(page, QUESTION)

    # Streamed answer: the live region fills, then the final answer settles.
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    numbers = await citation_numbers(page)
    assert numbers, "the answer must carry superscript citations"
    assert numbers[0] == "[1]"
    assert all(n.startswith("[") for n in numbers)
    sources = await source_list(page)
    distinct = sorted({n.strip("[]?") for n in numbers}, key=int)
    assert len(sources) == len(distinct)
    assert any("Getting started" in s or "Install" in s for s in sources), sources
    await expect(page.locator(".cc-status")).to_have_text(f"Answered with {len(sources)} sources.")
    assert await page.locator(".cc-log[aria-live=polite]").count() == 1

    # Hover shows title, page/section and the quote in a role=tooltip element.
    first = page.locator(f"{ANSWERED} .cc-body sup a").first
    await first.hover()
    tip_id = await first.get_attribute("aria-describedby")
    assert tip_id
    tip = page.locator(f"[id='{tip_id}']")
    await expect(tip).to_be_visible()
    assert await tip.get_attribute("role") == "tooltip"
    tip_text = await tip.inner_text()
    assert "Getting started" in tip_text or "Install" in tip_text, tip_text
    assert "“" in tip_text, "the tooltip quotes the passage"
    # the section path leaves out the heading that only repeats the title
    assert await tip.locator(".cc-tip-where").inner_text() == "Install > Linux"
    assert not [s for s in sources if "Getting started with citecast >" in s], sources
    shot = artifact("chat-answer.png")
    await page.screenshot(path=str(shot))
    publish_screenshot(shot)
    await page.mouse.move(5, 5)
    await expect(tip).to_be_hidden()

    # Follow the citation: it opens the signed download / deep link in a new tab.
    href = await first.get_attribute("href")
    assert href and not href.startswith("#"), href
    async with context.expect_page() as opened:
        await first.click()
    target = await opened.value
    await target.wait_for_load_state()
    assert target.url.split("#")[0] == href.split("#")[0]
    assert "citecast" in (await target.content()).lower()
    await target.close()

    # Reload: the same conversation with the same numbers and sources.
    await page.reload()
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=10_000)
    assert await citation_numbers(page) == numbers
    assert await source_list(page) == sources
    assert await page.locator(".cc-question span").nth(1).inner_text() == QUESTION
    assert not [e for e in console_errors if "favicon" not in e], console_errors
    await context.close()


async def test_keyboard_only_use(browser: Browser, citecast: RunningCitecast) -> None:
    context = await browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = await context.new_page()
    await page.goto(citecast.url + "/")
    # Tab from the top reaches the question box; Enter asks.
    for _ in range(6):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.id") == "cc-question":
            break
    assert await page.evaluate("document.activeElement.id") == "cc-question"
    await page.keyboard.type(QUESTION)
    await page.keyboard.press("Enter")
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    # Tab onwards until the first citation has focus: its tooltip shows on focus.
    for _ in range(12):
        await page.keyboard.press("Tab")
        if await page.evaluate("!!document.activeElement.closest('sup')"):
            break
    focused_tip = await page.evaluate("document.activeElement.getAttribute('aria-describedby')")
    assert focused_tip
    await expect(page.locator(f"[id='{focused_tip}']")).to_be_visible()
    await page.keyboard.press("Escape")
    await expect(page.locator(f"[id='{focused_tip}']")).to_be_hidden()
    # The copy button is reachable and reports success in the status region.
    await page.get_by_role("button", name="Copy answer").focus()
    await page.keyboard.press("Enter")
    await expect(page.locator(".cc-status")).to_have_text("Answer copied to the clipboard.")
    # the copy is plain text: [n] markers, then a Sources: list with each source's link
    copied = await page.evaluate("navigator.clipboard.readText()")
    text, _, listed = copied.partition("\n\nSources:\n")
    assert "[1]" in text and "[^" not in text and "<" not in text, copied
    assert listed.startswith("[1] Getting started with citecast — Install > Linux — http"), copied
    await context.close()


async def test_empty_question_and_unreachable_server_are_explained(
    browser: Browser, tmp_path: Path
) -> None:
    running = await start_citecast(tmp_path)
    page = await browser.new_page()
    await page.goto(running.url + "/")
    await page.get_by_role("button", name="Ask").click()
    await expect(page.locator(".cc-status")).to_have_text("Type a question first.")
    await running.stop()
    await ask(page, QUESTION)
    reason = page.locator(".cc-failed .cc-error")
    await expect(reason).to_contain_text("Cannot reach the citecast server", timeout=15_000)
    await page.screenshot(path=str(artifact("chat-unreachable.png")))
    await page.close()


async def test_hostile_question_is_shown_as_text(
    browser: Browser, citecast: RunningCitecast
) -> None:
    page = await browser.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: dialogs.append(d.message))
    await page.goto(citecast.url + "/")
    hostile = '<img src=x onerror="alert(1)"> install <script>alert(2)</script> [1] [^2]'
    await ask(page, hostile)
    await expect(page.locator(".cc-answer[aria-busy=false]")).to_have_count(1, timeout=20_000)
    assert await page.locator(".cc-question span").nth(1).inner_text() == hostile
    assert await page.locator(".cc-question img, .cc-question script").count() == 0
    assert dialogs == []
    await page.close()


async def test_an_answer_without_sources_says_so(
    browser: Browser, citecast: RunningCitecast
) -> None:
    page = await answered_page(browser, citecast, "What is the capital of France?")
    await expect(page.locator(f"{ANSWERED} .cc-body")).to_contain_text("could not find anything")
    assert await page.locator(f"{ANSWERED} ol.sources > li").count() == 0
    await expect(page.locator(".cc-status")).to_have_text("Answered without sources.")
    await page.close()


async def test_a_tooltip_leaves_out_a_heading_the_title_already_says(
    browser: Browser, citecast: RunningCitecast
) -> None:
    # "citecast security model" is titled; its top heading "Security model" says nothing more
    page = await answered_page(browser, citecast, "How long do download links last?")
    first = page.locator(f"{ANSWERED} .cc-body sup a").first
    await first.focus()
    tip = page.locator(f"[id='{await first.get_attribute('aria-describedby')}']")
    await expect(tip.locator(".cc-tip-where")).to_have_text("Signed file downloads")
    await expect(tip.locator(".cc-tip-title")).to_have_text("citecast security model")
    await page.close()


async def test_the_page_shows_the_deployment_name_and_suggestions(
    browser: Browser, tmp_path: Path
) -> None:
    running = await start_citecast(
        tmp_path,
        title="Acme <docs>",
        subtitle="Ask about Acme.",
        suggested_prompts=[QUESTION, "<b>not markup</b>"],
    )
    page = await browser.new_page()
    await page.goto(running.url + "/")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Acme <docs>")
    await expect(page.locator(".cc-subtitle")).to_have_text("Ask about Acme.")
    assert await page.title() == "Acme <docs> — answers with sources"
    suggestions = page.get_by_role("group", name="Try asking").get_by_role("button")
    assert await suggestions.all_inner_texts() == [QUESTION, "<b>not markup</b>"]
    # a suggestion asks itself; the suggestions leave with the empty conversation
    await suggestions.first.click()
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    assert await page.locator(".cc-question span").nth(1).inner_text() == QUESTION
    await expect(page.get_by_role("group", name="Try asking")).to_have_count(0)
    await page.close()
    await running.stop()


async def test_an_answer_can_be_rated_once(browser: Browser, citecast: RunningCitecast) -> None:
    context = await browser.new_context()
    page = await context.new_page()
    await page.goto(citecast.url + "/")
    await ask(page, QUESTION)
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    other = await context.new_page()  # a second tab on the same conversation, not voted
    await other.goto(citecast.url + "/")
    await expect(other.locator(ANSWERED)).to_have_count(1, timeout=10_000)
    votes = page.get_by_role("group", name="Was this helpful?")
    helpful = votes.get_by_role("button", name="Helpful", exact=True)
    await helpful.click()
    await expect(page.locator(".cc-status")).to_have_text("Thanks for the feedback.")
    await expect(helpful).to_have_attribute("aria-pressed", "true")
    await expect(votes.get_by_role("button", name="Not helpful")).to_be_disabled()
    turn_id = int(await page.locator(ANSWERED).get_attribute("data-turn-id") or 0)
    assert citecast.services.store.feedback(turn_id) == ["helpful"]
    # the other tab's vote is refused, and shows the vote that stands, not the refused one
    other_votes = other.get_by_role("group", name="Was this helpful?")
    refused = other_votes.get_by_role("button", name="Not helpful")
    await refused.click()
    await expect(other.locator(".cc-status")).to_have_text("This answer was already rated.")
    await expect(refused).to_have_attribute("aria-pressed", "false")
    await expect(refused).to_be_disabled()
    stands = other_votes.get_by_role("button", name="Helpful", exact=True)
    await expect(stands).to_have_attribute("aria-pressed", "true")
    assert citecast.services.store.feedback(turn_id) == ["helpful"]
    # after a reload the answer shows its vote, and there is nothing left to choose
    await page.reload()
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=10_000)
    await expect(helpful).to_have_attribute("aria-pressed", "true")
    await expect(votes.get_by_role("button", name="Not helpful")).to_have_attribute(
        "aria-pressed", "false"
    )
    for button in await votes.get_by_role("button").all():
        await expect(button).to_be_disabled()
    await context.close()


async def test_keyboard_focus_is_never_hidden_by_the_question_box(
    browser: Browser, citecast: RunningCitecast
) -> None:
    # WCAG 2.4.11: on a phone the sticky question box covers the bottom of the screen
    context = await browser.new_context(viewport={"width": 375, "height": 740})
    page = await context.new_page()
    await page.goto(citecast.url + "/")
    for asked, question in enumerate([QUESTION, "How long do download links last?"], 1):
        await ask(page, question)
        await expect(page.locator(ANSWERED)).to_have_count(asked, timeout=20_000)
    await page.get_by_role("button", name="New conversation").focus()
    form = page.locator(".cc-form")
    checked = 0
    for _ in range(60):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.closest('.cc-form') !== null"):
            break
        await page.wait_for_timeout(50)  # the page has scrolled the focused control clear
        box = await page.evaluate(
            "(() => { const r = document.activeElement.getBoundingClientRect();"
            " return {top: r.top, bottom: r.bottom, what: document.activeElement.outerHTML"
            ".slice(0, 80)}; })()"
        )
        form_box = await form.bounding_box()
        assert form_box
        assert box["top"] >= 0 and box["bottom"] <= form_box["y"], (box, form_box)
        checked += 1
    assert checked >= 10, "tabbed through both answers"
    await context.close()


async def test_asking_with_a_button_leaves_focus_in_the_question_box(
    browser: Browser, tmp_path: Path
) -> None:
    running = await start_citecast(tmp_path, suggested_prompts=[QUESTION])
    page = await browser.new_page()
    await page.goto(running.url + "/")
    box = page.get_by_label("Your question")
    # a suggestion leaves with the empty conversation
    await page.get_by_role("group", name="Try asking").get_by_role("button").first.click()
    await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
    await expect(box).to_be_focused()
    # the Ask button is disabled while the answer is written
    await box.fill("How long do download links last?")
    await page.get_by_role("button", name="Ask", exact=True).click()
    await expect(page.locator(ANSWERED)).to_have_count(2, timeout=20_000)
    await expect(box).to_be_focused()
    await page.close()
    await running.stop()
