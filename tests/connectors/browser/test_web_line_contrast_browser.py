"""The borders that show where a control is (the buttons, the question box, the widget's panel)
keep 3:1 contrast against what they sit on and against the control's own fill (WCAG 1.4.11),
measured as headless Chromium draws them, in the light palette and in the dark one, on the
chat page and in the widget."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from playwright.async_api import Browser, Page, expect

from tests.connectors.browser.scripted_stream import Script, answer_events
from tests.connectors.web.conftest import LiveServer, cited_answer, passage

WAIT = 10_000  # ms
CONTROLS = [".cc-secondary", ".cc-vote", ".cc-input", ".cc-panel"]
# For each visible element matching the selectors under ``root`` (the document or the widget's
# shadow root) with a border: the border's contrast against the element's own fill (when it
# has one) and against what it sits on (the first ancestor, across the shadow root, with a
# background; the page's white if none).
BORDERS = """([root, selectors]) => {
  const rgb = value => (value.match(/[\\d.]+/g) || []).map(Number);
  const opaque = c => c.length === 3 || (c.length === 4 && c[3] > 0);
  const lum = ([r, g, b]) => {
    const lin = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const under = node => {
    for (let n = node.parentElement || node.getRootNode().host; n;
         n = n.parentElement || (n.getRootNode().host || null)) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (opaque(c)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const scope = root === 'widget' ? document.querySelector('#citecast-widget').shadowRoot
                                  : document;
  return selectors.flatMap(selector => Array.from(scope.querySelectorAll(selector))
    .filter(node => node.getClientRects().length)
    .map(node => {
      const css = getComputedStyle(node);
      const line = rgb(css.borderTopColor);
      if (parseFloat(css.borderTopWidth) === 0 || !opaque(line)) return null;
      const fill = rgb(css.backgroundColor);
      const against = [under(node)].concat(opaque(fill) ? [fill.slice(0, 3)] : []);
      return { selector, text: (node.textContent || '').trim().slice(0, 30),
               line: css.borderTopColor,
               ratio: Math.min(...against.map(c => ratio(line.slice(0, 3), c))) };
    }).filter(Boolean));
}"""


async def answered(page: Page, script: Script, scope: str) -> None:
    """Ask, and answer with a cited answer, so its buttons are drawn."""
    box = page.get_by_label("Your question")
    await box.fill("How is it set up?")
    await box.press("Enter")
    events = answer_events(cited_answer(passage(1)))
    script.send("start", {"conversation_id": "c-scripted", "turn_id": 1})
    script.send("citation", events.citations[0])
    for delta in events.deltas:
        script.send("delta", delta)
    script.send("done", events.done)
    script.end()  # the next question's stream reads the events sent after this
    await expect(page.locator(f"{scope} .cc-answer[aria-busy=false]")).to_have_count(
        1, timeout=WAIT
    )


def assert_3_to_1(found: list[dict[str, Any]], where: str) -> None:
    seen = {item["selector"] for item in found}
    assert {".cc-secondary", ".cc-vote", ".cc-input"} <= seen, (where, seen)
    low = [item for item in found if item["ratio"] < 3]
    assert not low, (where, low)


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_control_borders_have_3_to_1_contrast(
    browser: Browser, scripted: tuple[Script, LiveServer], scheme: Literal["light", "dark"]
) -> None:
    script, live = scripted
    context = await browser.new_context(color_scheme=scheme)
    try:
        page = await context.new_page()
        await page.goto(live.url + "/")
        await answered(page, script, "")
        assert_3_to_1(await page.evaluate(BORDERS, ["page", CONTROLS]), f"{scheme} page")

        site = await context.new_page()
        await site.goto(live.url + "/host")
        await site.get_by_role("button", name="Ask citecast").click()
        await answered(site, script, "#citecast-panel")
        found = await site.evaluate(BORDERS, ["widget", CONTROLS])
        assert ".cc-panel" in {item["selector"] for item in found}, found
        assert_3_to_1(found, f"{scheme} widget")
    finally:
        await context.close()
