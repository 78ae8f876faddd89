"""C0/C1 control characters from documents or the model never reach a channel's payload.

A source title "\\u202eevil\\u0000\\u001b[31m" kept its NUL and ESC in Slack, Discord, Discourse
and email ("[3] evil\\u0000\\u001b[31m"), and the preview showed missing-glyph boxes; a platform
may refuse a NUL. They are dropped where the bidi controls are (``bot.bidi_controls``); tab and
line feed stay where they lay text out, and the controls that separate words become a space.
"""

from __future__ import annotations

import json

import pytest

from bot.bidi_controls import without_bidi_controls
from bot.models import Answer, Citation, RecordAction, Source
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.url_encoding import encoded_url
from tests.renderers.payload_checks import check_no_control_characters

HOSTILE = "\u202eevil\u0000\u001b[31m"


def hostile_answer() -> Answer:
    page = Source(
        id="p",
        title=HOSTILE,
        url="https://docs.example/p",
        section=f"Fees{HOSTILE} > Seats\u0007",
    )
    file = Source(
        id="f",
        title=f"Invoice{HOSTILE}",
        path="kb/invoice.pdf",
        filename="invoice\u0000\u0085.pdf",
        media_type="application/pdf",
    )
    row = Source(
        id="r",
        kind="record",
        label=f"Team\u001b plan{HOSTILE}",
        columns={"price": "19\u0000 USD\u009b"},
        action=RecordAction("Buy\u0000 now", "https://shop.example/team"),
    )
    text = (
        "The fee\u0000 is 19\u001b[31m USD [^1], see the invoice\u0085 [^2] and the row [^3].\n\n"
        "- item\u0007 one [^1]\n\n"
        "```\ncode\u0000 line\tkept\n```\n\n"
        "| Plan\u0001 | Price |\n|---|---|\n| Team | 19\u007f |\n"
    )
    citations = (
        Citation(1, page, 1, quote="the fee\u0000 is 19"),
        Citation(2, file, 2, quote="total\u001b due"),
        Citation(3, row, 3, columns=("price",)),
    )
    return Answer(text=text, citations=citations)


@pytest.mark.parametrize("channel", CHANNELS)
def test_no_control_character_reaches_a_payload(channel: str) -> None:
    signer = RenderContext(signer=lambda s: f"https://bot.example/files/{s.id}")
    for context in (RenderContext(), signer):
        payload = render(channel, hostile_answer(), context)
        check_no_control_characters(payload)
        blob = json.dumps(payload, ensure_ascii=False)
        assert "evil" in blob and "31m" in blob  # the words stay, only the controls go


def test_the_qa_title_shows_without_its_controls() -> None:
    source = Source(id="a", title=HOSTILE, url="https://docs.example/a")
    answer = Answer(text="See [^1].", citations=(Citation(1, source, 1),))
    assert "[1] evil[31m" in render("email", answer)["text"]
    assert "\u0000" not in json.dumps(render("slack", answer))


def test_tabs_and_line_feeds_stay_and_word_separators_become_spaces() -> None:
    assert without_bidi_controls("a\tb\nc\r\nd") == "a\tb\nc\r\nd"
    assert without_bidi_controls("a\x0cb\x85c\x1fd") == "a b c d"
    assert without_bidi_controls("a\x00b\x1b[0m\x7f\x9b") == "ab[0m"
    assert without_bidi_controls("plain text") == "plain text"


def test_a_control_character_in_a_url_is_percent_encoded() -> None:
    assert encoded_url("https://e.example/a\x85b") == "https://e.example/a%C2%85b"
