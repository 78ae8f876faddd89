"""In headless Chromium, no citation number opens a line alone: the email's HTML part (its own
inline styles), the web HTML without a style, and the web HTML in the chat's own stylesheet
(which draws each number as an inline-block badge, where Chromium may wrap whatever the text
says: ``.cc-body sup`` does not wrap), laid out at every width from a phone's to a desktop mail
reader's, after words, full stops, code spans, bold text and links."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from tests.chromium import launch_chromium

GUIDE = Citation(1, Source(id="g", title="Setup guide", url="https://docs.example/setup"), 1)
NOTES = Citation(2, Source(id="n", title="Notes", url="https://docs.example/notes"), 2)
# a marker after a space (the built-in answerer's "works [1]."), after a full stop, and after
# a code span, bold text and a link (where the space is its own text token)
TEXT = (
    "On Debian and Ubuntu, install the python3-venv package first so that the venv module "
    "works [^1]. No system database or search server is needed: the knowledge index is a "
    "single SQLite file [^2]. Python 3.11 or newer is required, on Linux with systemd.[^1] "
    "Install citecast with pip, or clone the repository and run make serve [^2], which "
    "starts the web chat on port 8080.[^2] Restart it with `systemctl restart citecast` [^1] "
    "after changing the configuration, and keep the index on a **local disk** [^2] as the "
    "[setup guide](https://docs.example/setup) [^1] says; logs go to `journalctl` [^2]."
)

# For each width, the citations whose number is laid out below the last letter before it.
ALONE = """async (widths) => {
  const box = document.getElementById("box");
  const alone = [];
  for (const width of widths) {
    box.style.width = width + "px";
    for (const sup of box.querySelectorAll("sup")) {
      let node = sup.previousSibling;
      while (node && node.nodeType === Node.TEXT_NODE && !node.textContent.trim()) {
        node = node.previousSibling;
      }
      if (node && node.nodeType === Node.ELEMENT_NODE) {
        // after <code>, <strong> or <a>: their last letter
        const texts = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        let last = null;
        while (texts.nextNode()) {
          if (texts.currentNode.textContent.trim()) last = texts.currentNode;
        }
        node = last;
      }
      if (!node || node.nodeType !== Node.TEXT_NODE) continue;
      const end = node.textContent.trimEnd().length;
      const range = document.createRange();
      range.setStart(node, end - 1);
      range.setEnd(node, end);
      const letter = range.getBoundingClientRect();
      const number = sup.getBoundingClientRect();
      if ((number.top + number.bottom) / 2 > letter.bottom) {
        alone.push([width, sup.textContent]);
      }
    }
  }
  return alone;
}"""


CHAT_CSS = Path(__file__).parents[2] / "bot" / "connectors" / "static" / "chat.css"


def page_html(channel: str) -> str:
    rendered = "web" if channel == "chat" else channel
    markup = str(render(rendered, Answer(text=TEXT, citations=(GUIDE, NOTES)))["html"])
    if channel == "email":
        markup = markup.split("<body", 1)[1].split(">", 1)[1].split("</body>", 1)[0]
    if channel == "chat":
        style = CHAT_CSS.read_text(encoding="utf-8")
        return (
            f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{style}</style></head>'
            '<body style="margin:0;"><div class="cc-root">'
            f'<div id="box" class="cc-body">{markup}</div></div></body></html>'
        )
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
        '<body style="margin:0;font:16px/1.5 sans-serif;">'
        f'<div id="box">{markup}</div></body></html>'
    )


@pytest.mark.parametrize("channel", ["email", "web", "chat"])
async def test_no_citation_number_opens_a_line_alone(channel: str, tmp_path: Path) -> None:
    page_file = tmp_path / f"{channel}.html"
    page_file.write_text(page_html(channel), encoding="utf-8")
    async with launch_chromium() as browser:
        page = await browser.new_page(viewport={"width": 900, "height": 800})
        await page.route(
            "**/*",
            lambda route: (
                route.abort() if not route.request.url.startswith("file:") else route.continue_()
            ),
        )
        await page.goto(page_file.as_uri())
        alone = await page.evaluate(ALONE, list(range(160, 720, 3)))
    assert alone == []
