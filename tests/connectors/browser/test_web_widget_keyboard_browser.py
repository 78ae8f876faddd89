"""The widget for a keyboard-only and a screen-reader user, in headless Chromium on a host page
with landmarks of its own (scripted_stream.py): Tab goes round the open panel and its button,
never on to the page behind it; Escape gives the page back with focus on the button; the
panel is a named, non-modal dialog that adds no landmark to the page, and every control in it
has a name (read from Chromium's accessibility tree over CDP)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.connectors.browser.scripted_stream import Script, answer_events
from tests.connectors.web.conftest import LiveServer, cited_answer, passage

WAIT = 10_000  # ms
# The focused element, looked for inside the widget's shadow root too.
FOCUSED = """() => {
  let node = document.activeElement;
  while (node && node.shadowRoot && node.shadowRoot.activeElement) {
    node = node.shadowRoot.activeElement;
  }
  return node ? (node.getAttribute('aria-label') || node.textContent || '').trim() : '';
}"""


@pytest.fixture
async def site(browser: Browser, scripted: tuple[Script, LiveServer]) -> AsyncIterator[Page]:
    """The host page with the widget, opened from the keyboard and answered once."""
    script, live = scripted
    page = await browser.new_page()
    await page.goto(live.url + "/host")
    launcher = page.get_by_role("button", name="Ask citecast")
    await expect(launcher).to_be_attached(timeout=WAIT)
    await page.get_by_role("link", name="Contact Acme").focus()
    await page.keyboard.press("Tab")
    await expect(launcher).to_be_focused()
    await page.keyboard.press("Enter")
    box = page.get_by_label("Your question")
    await expect(box).to_be_focused(timeout=WAIT)
    await page.keyboard.type("How is it set up?")
    await page.keyboard.press("Enter")
    events = answer_events(cited_answer(passage(1)))
    script.send("start", {"conversation_id": "c-scripted", "turn_id": 1})
    script.send("citation", events.citations[0])
    for delta in events.deltas:
        script.send("delta", delta)
    script.send("done", events.done)
    script.end()  # the next question's stream reads the events sent after this
    await expect(page.locator("#citecast-panel .cc-answer[aria-busy=false]")).to_have_count(
        1, timeout=WAIT
    )
    yield page
    await page.context.close()


async def tab(page: Page, key: str = "Tab") -> str:
    await page.keyboard.press(key)
    focused: str = await page.evaluate(FOCUSED)
    return focused


async def test_tab_goes_round_the_open_panel_and_escape_gives_the_page_back(site: Page) -> None:
    launcher = site.get_by_role("button", name="Ask citecast")
    close = site.get_by_role("button", name="Close the chat")
    panel = site.locator("#citecast-panel")
    await site.get_by_role("button", name="Ask", exact=True).focus()
    assert await tab(site) == "Ask citecast"
    # on from the button: back to the panel's first control, not the page behind it
    assert await tab(site) == "Close the chat"
    await expect(close).to_be_focused()
    # all the way round: every control of the panel, then the button again
    seen = [await tab(site) for _ in range(10)]
    assert seen == [
        "New conversation",
        "Source 1: Guide 1, p. 1, Setup > Linux",
        "Guide 1",
        "Copy answer",
        "Helpful",
        "Not helpful",
        "",  # the question box
        "Ask",
        "Ask citecast",
        "Close the chat",
    ], seen
    # and back: Shift+Tab from the first control reaches the button
    await close.focus()
    assert await tab(site, "Shift+Tab") == "Ask citecast"
    await expect(panel).to_be_visible()

    # Escape closes the panel, focus on its button; Tab then goes on into the page
    await close.focus()
    await site.keyboard.press("Escape")
    await expect(panel).to_be_hidden()
    await expect(launcher).to_be_focused()
    await expect(launcher).to_have_attribute("aria-expanded", "false")
    assert await tab(site) != "Close the chat"
    assert await site.evaluate("document.activeElement.id") != "citecast-widget"


async def test_the_panel_says_how_to_leave_it(site: Page) -> None:
    await expect(site.locator("#citecast-panel .cc-hint")).to_have_text(
        "Enter to ask, Shift+Enter for a new line, Escape to close the chat."
    )


async def ax_nodes(page: Page) -> list[dict[str, Any]]:
    """Chromium's accessibility tree of ``page``, the nodes it does not ignore."""
    cdp = await page.context.new_cdp_session(page)
    tree = await cdp.send("Accessibility.getFullAXTree")
    await cdp.detach()
    return [node for node in tree["nodes"] if not node.get("ignored")]


def role(node: dict[str, Any]) -> str:
    return str(node.get("role", {}).get("value", ""))


def name(node: dict[str, Any]) -> str:
    return str(node.get("name", {}).get("value", ""))


def prop(node: dict[str, Any], key: str) -> Any:
    for item in node.get("properties", []):
        if item["name"] == key:
            return item["value"].get("value")
    return None


async def test_the_panel_is_a_named_dialog_adding_no_landmark_to_the_page(site: Page) -> None:
    nodes = await ax_nodes(site)
    # the page's own landmarks, and no second banner from the chat's heading row
    assert [name(n) for n in nodes if role(n) == "banner"] == [""], [
        (role(n), name(n)) for n in nodes if role(n) in ("banner", "contentinfo", "main")
    ]
    assert sum(role(n) == "main" for n in nodes) == 1
    dialogs = [n for n in nodes if role(n) == "dialog"]
    assert [(name(n), prop(n, "modal")) for n in dialogs] == [("citecast", False)]
    launcher = [n for n in nodes if role(n) == "button" and name(n) == "Ask citecast"]
    assert [prop(n, "expanded") for n in launcher] == [True]
    # every control has a name; the live log and status line are polite
    controls = [n for n in nodes if role(n) in ("button", "textbox", "link")]
    assert len(controls) >= 8, [(role(n), name(n)) for n in controls]
    assert all(name(n).strip() for n in controls), [(role(n), name(n)) for n in controls]
    live = {role(n): prop(n, "live") for n in nodes if role(n) in ("log", "status")}
    assert live == {"log": "polite", "status": "polite"}


# The focused element's name and focus ring (outline style and width), in the shadow root too.
RING = """() => {
  let node = document.activeElement;
  while (node && node.shadowRoot && node.shadowRoot.activeElement) {
    node = node.shadowRoot.activeElement;
  }
  const css = getComputedStyle(node);
  return [(node.getAttribute('aria-label') || node.textContent || '').trim(),
          css.outlineStyle + ' ' + css.outlineWidth];
}"""


async def test_every_stop_of_the_open_widget_shows_its_focus(site: Page) -> None:
    await site.get_by_role("button", name="Close the chat").focus()
    rings = [await site.evaluate(RING)]
    for _ in range(10):  # once round, back to the close button
        await site.keyboard.press("Tab")
        rings.append(await site.evaluate(RING))
    assert {ring for _, ring in rings} == {"solid 3px"}, rings
    assert rings[-1][0] == "Close the chat", rings
    assert {label for label, _ in rings} >= {"Close the chat", "Ask citecast", "Copy answer"}
