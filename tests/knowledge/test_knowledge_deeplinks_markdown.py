"""Text fragments into rendered Markdown pages quote what the reader sees, not the source."""

from __future__ import annotations

from urllib.parse import unquote

from bot.deeplinks import deep_link
from bot.models import Source

GUIDE = Source("guide.md#2", url="https://docs.test/guide.html", media_type="text/markdown")


def fragment_text(quote: str) -> str:
    link = deep_link(GUIDE, quote)
    assert link is not None and link.startswith("https://docs.test/guide.html#:~:text=")
    return unquote(link.split("#:~:text=", 1)[1])


def test_markdown_quote_loses_emphasis_code_ticks_and_link_targets() -> None:
    quote = "Run `make serve` to **start** the [web chat](https://x.test/chat) _now_."
    assert fragment_text(quote) == "Run make serve to start the web chat now."


def test_markdown_list_marks_images_tags_and_entities_are_not_page_text() -> None:
    quote = "1. Pick a plan ![icon](i.png) &amp; pay<br>with <b>card</b>."
    assert fragment_text(quote) == "Pick a plan & pay with card."


def test_snake_case_and_escapes_read_as_rendered() -> None:
    assert fragment_text(r"Set snake_case_name to 2 \* 3.") == "Set snake_case_name to 2 * 3."
