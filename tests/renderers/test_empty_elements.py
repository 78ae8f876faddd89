"""No renderer emits an empty header, section, heading, bullet or table for any input.

Slack rejects a message whose header or section text is empty (``invalid_blocks``); the other
channels would show a bare ``#``, bullet or empty box. Empty blocks are left out.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import Answer, Citation, Source
from renderers import CHANNELS, render
from tests.renderers.payload_checks import CHECKS, check_no_empty_elements, empty_code_spans

EMPTY_BLOCKS = [
    "#", "# ", "######", "# [^9]", "## \u200b", "-", "- \n- ", "* ", ">", "> \n>",
    "```\n```", "```\n   \n```", "| |\n|-|\n| |", "&nbsp;", "\u200b", "`` ``", "[]()",
    "- 8443. ", "1. \n2. ",
]  # fmt: skip
SOURCE = Source(id="s1", title="Guide", url="https://docs.example/guide")


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("block", EMPTY_BLOCKS)
def test_an_empty_block_alone_gives_a_valid_payload(block: str, channel: str) -> None:
    payload = render(channel, Answer(text=block, citations=()))
    CHECKS[channel](payload)
    check_no_empty_elements(channel, payload)


@pytest.mark.parametrize("channel", CHANNELS)
def test_empty_blocks_among_text_are_left_out(channel: str) -> None:
    text = "\n\n".join(["# Title", *EMPTY_BLOCKS, "Answer.[^1]", "- a\n- \n- b"])
    answer = Answer(text=text, citations=(Citation(1, SOURCE, 1),))
    payload = render(channel, answer)
    CHECKS[channel](payload)
    check_no_empty_elements(channel, payload)


def test_slack_empty_heading_gives_no_header_block() -> None:
    payload = render("slack", Answer(text="#\n\nText.", citations=()))
    blocks = payload["messages"][0]["blocks"]
    assert [b["type"] for b in blocks] == ["section"]
    assert blocks[0]["text"]["text"] == "Text."


def test_empty_bullets_are_dropped_but_numbered_items_keep_their_number() -> None:
    payload = render("discourse", Answer(text="- a\n-\n- b\n\n1. x\n2.\n3. y", citations=()))
    assert payload["raw"] == "- a\n- b\n\n1. x\n2. \n3. y"


@pytest.mark.parametrize(
    ("markdown", "empty"),
    [
        ("`` ` ``", []),  # a span holding one backtick
        ("x ` ` y", ["` `"]),
        ("`a` and `` ``", ["`` ``"]),
        ("\\`` x `", []),  # the escaped backtick is text; the next opens the span " x "
        ("``", []),  # no closing run: literal backticks
    ],
)
def test_the_empty_code_span_check_pairs_runs_as_commonmark_does(
    markdown: str, empty: list[str]
) -> None:
    assert empty_code_spans(markdown) == empty


def markdown_body(channel: str, payload: dict[str, Any]) -> str:
    """The markdown a Discourse post or the first Discord message carries."""
    return str(payload["raw"] if channel == "discourse" else payload["messages"][0]["content"])


@pytest.mark.parametrize("channel", ["discord", "discourse"])
def test_markdown_lines_after_an_unclosed_html_block_stay_text(channel: str) -> None:
    # mistune reads everything after "<pre>" as one raw HTML block, shown as text
    answer = Answer(text="<pre> a\n\n# \n\n## x\n\n- y\n\n1. z", citations=())
    payload = render(channel, answer)
    text = markdown_body(channel, payload)
    assert text == "\\<pre\\> a\n\n\\# \n\n\\## x\n\n\\- y\n\n1\\. z"
    check_no_empty_elements(channel, payload)


@pytest.mark.parametrize("channel", ["discord", "discourse"])
def test_an_empty_quote_in_a_bullet_keeps_the_rest_of_the_bullet_in_it(channel: str) -> None:
    answer = Answer(text="- first point\n- > \n second point", citations=())
    payload = render(channel, answer)
    text = markdown_body(channel, payload)
    assert text == "- first point\n- second point"
    check_no_empty_elements(channel, payload)
