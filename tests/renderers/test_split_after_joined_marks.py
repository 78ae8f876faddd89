"""A Slack cut next to a literal mark after a citation link keeps the link whole.

Found by QA: ``"価格は5ドル[^1]*です" * 400`` (also ``[^1]*[^1]`` with a long
source URL, or ``[^7][^2]\\u200d[^1]``) ended every section in ``<https://docs.example/1|[1]``,
the link cut open, and started the next with its ``>``, which the splitter then took for a
quote marker, compounding "> >", "> > >" over six sections. Slack shows a literal "*" between
two zero-width joiners, and a joiner belongs to the character before it: the rule that never
parts a character moved the cut to before the ``>``, inside the link. A cut moved back into a
link now goes after it (or before it when that is out of reach); and only the block being split
says what is quoted, never a piece that starts with ">".
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.grapheme_cuts import joins_nothing
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext
from renderers.limits import SLACK_MAX_SECTION_CHARS, split_long
from tests.renderers.payload_checks import check_slack

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")
LONG_URL = "https://docs.example/1?q=" + "u" * 2_500


def cited(text: str, *urls: str) -> Answer:
    sources = [Source(id=f"s{n}", title=f"Guide {n}", url=u) for n, u in enumerate(urls, 1)]
    return Answer(
        text, tuple(Citation(n=n, source=s, source_number=n) for n, s in enumerate(sources, 1))
    )


def sections(payload: dict[str, Any]) -> list[str]:
    return [
        b["text"]["text"]
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    ]


def whole_links(section: str) -> bool:
    """True when every "<" in ``section`` opens a link closed in it, and no ">" is left over."""
    depth = 0
    for char in section:
        depth += {"<": 1, ">": -1}.get(char, 0)
        if depth not in (0, 1):
            return False
    return depth == 0


SEVEN = [f"https://docs.example/{n}" for n in range(1, 8)]


@pytest.mark.parametrize(
    ("text", "urls"),
    [
        ("価格は5ドル[^1]*です" * 400, ["https://docs.example/1"]),
        ("価格は5ドル[^1]_です" * 400, ["https://docs.example/1"]),
        ("価格は5ドル[^1]~です" * 400, ["https://docs.example/1"]),
        ("価格は5ドル[^1]`です" * 400, ["https://docs.example/1"]),
        ("[^1]*[^1]" * 3, [LONG_URL]),
        ("[^7][^2]\u200d[^1]" * 3, [LONG_URL, *SEVEN[1:]]),
    ],
    ids=["asterisk", "underscore", "tilde", "backtick", "long-url", "joiner"],
)
def test_a_slack_cut_next_to_a_literal_mark_keeps_every_link_whole(
    text: str, urls: list[str]
) -> None:
    payload = render("slack", cited(text, *urls), CONTEXT)
    check_slack(payload)
    shown = sections(payload)
    assert len(shown) > 1
    for section in shown:
        assert len(section) <= SLACK_MAX_SECTION_CHARS
        assert whole_links(section), (section[:60], section[-60:])
        assert not section.startswith((">", "&gt;", "\u200d")), section[:60]


def test_a_cut_after_a_link_and_its_joined_mark_keeps_the_mark_whole() -> None:
    link = "<https://docs.example/1|[1]>"
    text = ("価格は5ドル" + link + "\u200d*\u200dです") * 40
    for limit in range(40, 120):
        pieces = split_long(text, limit)
        assert "".join(pieces) == text, limit
        for piece in pieces:
            assert len(piece) <= limit and whole_links(piece), (limit, piece)
            assert not piece.startswith(("\u200d", "*")), (limit, piece)
            assert not piece.endswith("\u200d*"), (limit, piece)


def test_a_piece_starting_with_a_bracket_is_no_quote_of_its_own() -> None:
    # a line cut in two mid-word: its second half begins with ">", which is no quote marker
    pieces = split_long("a" * 50 + ">" + "b" * 100, 50)
    assert "".join(pieces) == "a" * 50 + ">" + "b" * 100, pieces
    assert not any(piece.startswith("> ") for piece in pieces), pieces


def test_a_quoted_line_cut_in_two_stays_quoted() -> None:
    pieces = split_long("> " + "quoted words " * 30, 100)
    assert len(pieces) > 2 and all(piece.startswith("> ") for piece in pieces), pieces
    assert not any(piece.startswith("> >") for piece in pieces), pieces


def test_a_joiner_after_an_ascii_character_joins_nothing_but_one_in_an_emoji_does() -> None:
    assert joins_nothing(">\u200d*", 2) and joins_nothing("]>\u200d<", 3)
    assert not joins_nothing("\U0001f469\u200d\U0001f467", 2)  # a family: one character
    assert not joins_nothing(">\u200d\u0301", 2)  # a combining mark stays with what it follows
    assert not joins_nothing(">*", 1) and not joins_nothing(">\u200d", 2)
