"""The chat's "Copy answer" in real headless Chromium copies plain text: the backslashes the
answer's Markdown needs to show a document's ``[1]`` as written are not copied (found in a QA
pass: it copied ``yearly \\[1\\] [2]``), code keeps its own, and every case ``citecast ask``
passes (``tests/renderers/plain_markdown_cases.json``) reads the same in the page."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.async_api import Browser, expect

from bot.models import Answer, Citation
from tests.connectors.browser.conftest import ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, passage

ANSWERED = ".cc-answer[aria-busy=false]"
CASES = json.loads(
    (Path(__file__).parents[2] / "renderers" / "plain_markdown_cases.json").read_text("utf-8")
)
# the clipboard, as a page sees it, replaced by one that keeps what was written to it
RECORDING_CLIPBOARD = """
Object.defineProperty(navigator, 'clipboard', {
  value: {writeText: (text) => { window.copiedText = text; return Promise.resolve(); }},
});
"""


async def test_copy_answer_drops_markdown_escapes_outside_code(
    browser: Browser, tmp_path: Path
) -> None:
    answer = Answer(
        text=(
            "The gasket must be replaced yearly \\[1\\] [^2]. The call arr\\[1\\] returns the "
            'second item [^1]:\n\n```sh\ngrep "\\[error\\]" app.log\n```\n\n'
            "Or run `grep \\[error\\]` [^1]."
        ),
        citations=(
            Citation(n=1, source=passage(1), source_number=1, support=0.9),
            Citation(n=2, source=passage(2), source_number=2, support=0.9),
        ),
    )
    running = await serve_answerer(tmp_path, CannedAnswerer(answer))
    context = await browser.new_context()
    await context.add_init_script(RECORDING_CLIPBOARD)
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await ask(page, "When is the gasket replaced?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        await page.get_by_role("button", name="Copy answer").click()
        await expect(page.locator(".cc-status")).to_have_text("Answer copied to the clipboard.")
        copied = await page.evaluate("window.copiedText")
        text = copied.partition("\n\nSources:\n")[0]
        assert text == (
            "The gasket must be replaced yearly [1] [2]. The call arr[1] returns the second "
            'item [1]:\n\n```sh\ngrep "\\[error\\]" app.log\n```\n\nOr run `grep \\[error\\]` [1].'
        ), copied

        # the page and `citecast ask` (renderers.plain_markdown) read every case alike
        read = await page.evaluate(
            """(cases) => cases.map((c) => Citecast.actions.plainMarkdown(
                 c.markdown, (n) => "[" + n + "]"))""",
            CASES,
        )
        assert {c["why"]: r for c, r in zip(CASES, read, strict=True)} == {
            c["why"]: c["plain"] for c in CASES
        }
    finally:
        await context.close()
        await running.stop()
