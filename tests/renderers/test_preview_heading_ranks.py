"""The preview page's headings nest: each panel is an h2 under the page's h1, and what the
preview draws for a channel ranks below that h2 (h3 to h6), its own headings keeping their
order. The email's HTML part is the mail as sent (its own document, in a group of its own) and
keeps its ranks (tests/renderers/test_preview_email_inline.py).

Found in an accessibility pass: the Discord and Discourse panels drew an answer's "#" as an h2
or an h1 (the rank of the panels' own headings, or the page's), and the web panel its source
list's "Sources" as an h2.
"""

from __future__ import annotations

import re

import pytest

from bot.models import Answer, Citation, Source
from renderers.preview import preview_page

SOURCE = Source(id="s1", title="The <h1> element", url="https://docs.example/h1")
EVERY_LEVEL = "\n\n".join(f"{'#' * n} Level {n}" for n in range(1, 7)) + "\n\nUse it.[^1]"
ANSWER = Answer(text=EVERY_LEVEL, citations=(Citation(1, SOURCE, 1, quote="Use it."),))
HEADING = re.compile(r"<h([1-6])\b[^>]*>(.*?)</h\1>", re.S)


def panels(page: str) -> dict[str, list[tuple[int, str]]]:
    """Each panel's headings, (rank, text), by its channel; the page's own under ""."""
    parts = re.split(r'<section class="panel \w+" data-channel="(\w+)"', page)
    found = {"": parts[0], **dict(zip(parts[1::2], parts[2::2], strict=True))}
    return {
        channel: [(int(rank), text) for rank, text in HEADING.findall(markup)]
        for channel, markup in found.items()
    }


PAGE = panels(preview_page(ANSWER))


def test_the_page_is_one_h1_and_each_panel_an_h2() -> None:
    assert PAGE[""] == [(1, "citecast preview")]
    for channel in ("slack", "discord", "email", "discourse", "web"):
        assert PAGE[channel][0] == (2, channel.capitalize())


@pytest.mark.parametrize("channel", ["slack", "discord", "discourse", "web"])
def test_nothing_in_a_panel_ranks_with_or_above_its_heading(channel: str) -> None:
    inside = [rank for rank, _ in PAGE[channel][1:]]
    assert all(3 <= rank <= 6 for rank in inside), PAGE[channel]


def test_each_channels_headings_keep_their_order_one_rank_below_the_panel() -> None:
    levels = [f"Level {n}" for n in range(1, 7)]
    # Discord has "#" to "###", the renderer writes "#" as "##": two ranks, from h3
    assert PAGE["discord"][1:] == list(zip([3, 3, 4, 4, 4, 4], levels, strict=True))
    # Discourse keeps all six, from h3 down; h6 is as deep as HTML goes
    assert PAGE["discourse"][1:] == list(zip([3, 4, 5, 6, 6, 6], levels, strict=True))
    # the email as sent: its "#" is its h1
    assert PAGE["email"][1:] == [*zip(range(1, 7), levels, strict=True), (2, "Sources")]
    # the web's "Sources" ranks above the answer's headings, as in the chat (h2, then h3)
    assert PAGE["web"][1:] == [*zip([4, 5, 6, 6, 6, 6], levels, strict=True), (3, "Sources")]


def test_a_heading_tag_written_in_a_source_title_is_left_as_text() -> None:
    page = preview_page(ANSWER)
    assert "The &lt;h1&gt; element" in page
    assert "&lt;h3&gt;" not in page and "<h1> element" not in page
