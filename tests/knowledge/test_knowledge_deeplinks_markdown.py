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
    # a <br> is a line break on the page, and Chromium matches it only as one
    assert fragment_text(quote) == "Pick a plan & pay\nwith card."


def test_snake_case_and_escapes_read_as_rendered() -> None:
    assert fragment_text(r"Set snake_case_name to 2 \* 3.") == "Set snake_case_name to 2 * 3."


def test_a_soft_line_break_reads_as_a_space_and_a_hard_one_as_a_line_break() -> None:
    # a quote the model copied across a wrapped source line: joined, the words matched nothing
    assert fragment_text("the size of a\npassage") == "the size of a passage"
    assert fragment_text("the **size**\nof a passage") == "the size of a passage"
    # a hard break is a <br> on the page (tests/connectors/browser/test_web_file_line_breaks_*)
    assert fragment_text("the size of a  \npassage") == "the size of a\npassage"
    assert fragment_text("the size of a\\\npassage") == "the size of a\npassage"
    long = "one two three four five six seven eight nine ten  \neleven twelve thirteen fourteen"
    assert fragment_text(long + " fifteen sixteen seventeen eighteen nineteen twenty") == (
        "one two three four,seventeen eighteen nineteen twenty"
    )
    assert fragment_text("words then a break  \n") == "words then a break"
