"""A long block split across messages never parts a character as a reader sees it.

``split_long`` cut a block with nowhere better to cut (no line, sentence end or space within
the limit) at the limit itself, by code point: a flag became two lone regional indicators, an
emoji family ended in a joiner in one message and went on in the next, and a decomposed "ぼ"
arrived as "ほ" followed by a message opening with its voicing mark. A space followed by a
combining mark was cut between the two. Every cut now falls between whole graphemes
(:mod:`bot.grapheme_cuts`).
"""

from __future__ import annotations

import unicodedata
from itertools import accumulate

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.grapheme_cuts import is_grapheme_boundary
from bot.models import Answer
from renderers import render
from renderers.limits import DISCORD_MAX_CONTENT, split_first, split_long
from tests.renderers.payload_checks import check_discord, check_slack

FLAG = "🇺🇦"
FAMILY = "👩\u200d👩\u200d👧\u200d👦"
VOICED_BO = unicodedata.normalize("NFD", "ぼ")
ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"

# Whole characters and words that no neighbour here joins, so a text made of them may be cut
# exactly between two of them. No line breaks or Markdown: the pieces are then the text's own
# stretches, with only spaces between them.
CLUSTERS = (
    "word",
    "a",
    " ",
    "\u00a0",
    ".",
    "。",
    "！",
    "e\u0301",
    " \u0301",  # a space carrying a combining mark: one character, not a place to cut
    VOICED_BO,
    "\uff8a\uff9f",
    "\u0915\u093f",
    "ש\u05b8",
    FLAG,
    "🇯🇵",
    FAMILY,
    "👍🏽",
    "❤\ufe0f",
    ENGLAND,
    "\u1100\u1161\u11a8",
    "각",
    "中",
    "Ж",
)
# with spaces, and without (where only a cut between two characters is left)
texts = st.one_of(
    st.lists(st.sampled_from(CLUSTERS), min_size=1, max_size=400),
    st.lists(
        st.sampled_from([c for c in CLUSTERS if not c[0].isspace()]), min_size=20, max_size=200
    ),
)
limits = st.integers(min_value=40, max_value=160)


def _boundaries(parts: list[str]) -> set[int]:
    """Where ``parts`` joined may be cut: between two of them, or inside an ASCII word."""
    units = [unit for part in parts for unit in (part if part.isascii() else [part])]
    return {0, *accumulate(len(unit) for unit in units)}


def _place_pieces(text: str, pieces: list[str]) -> list[tuple[int, int]]:
    """Where each piece stands in ``text``: in order, only whitespace between or after them
    (nothing lost, nothing added)."""
    spans: list[tuple[int, int]] = []
    at = 0
    for piece in pieces:
        while not text.startswith(piece, at):
            assert at < len(text) and text[at].isspace(), (piece, text[at:])
            at += 1
        spans.append((at, at + len(piece)))
        at += len(piece)
    assert not text[at:].strip(), text[at:]
    return spans


@settings(max_examples=300, deadline=None)
@given(texts, limits)
def test_splitting_never_parts_a_character(parts: list[str], limit: int) -> None:
    text = "".join(parts)
    pieces = split_long(text, limit)
    bounds = _boundaries(parts)
    assert all(len(piece) <= limit for piece in pieces)
    for start, end in _place_pieces(text, pieces):
        assert start in bounds and end in bounds, (text[start - 3 : start + 3], limit)


@settings(max_examples=300, deadline=None)
@given(texts, limits, st.booleans())
def test_the_first_piece_ends_on_a_whole_character(
    parts: list[str], limit: int, clean: bool
) -> None:
    text = "".join(parts)
    piece, rest = split_first(text, limit, clean)
    assert len(piece) <= limit
    bounds = _boundaries(parts)
    for start, end in _place_pieces(text, [p for p in (piece, rest) if p]):
        assert start in bounds and end in bounds, (text[start - 3 : start + 3], limit)


@pytest.mark.parametrize(
    "character",
    [FLAG, FAMILY, VOICED_BO, ENGLAND, "e\u0301"],
    ids=["flag", "family", "kana", "tags", "accent"],
)
@pytest.mark.parametrize("offset", range(7))
def test_a_run_without_spaces_is_cut_between_characters(character: str, offset: int) -> None:
    text = "x" * offset + character * 60
    pieces = split_long(text, 50)
    assert "".join(pieces) == text
    cuts = list(accumulate(len(piece) for piece in pieces))
    assert all(is_grapheme_boundary(text, cut) for cut in cuts)
    assert all(len(piece) <= 50 for piece in pieces)


def test_a_space_and_its_combining_mark_stay_together() -> None:
    text = "word " * 9 + "\u0301" + "x" * 60
    pieces = split_long(text, 46)
    assert pieces[0] == ("word " * 8).rstrip()
    assert pieces[1].startswith("word \u0301x")


def test_a_discord_message_never_ends_inside_a_flag() -> None:
    flags = "x" + FLAG * 1500  # no space to cut at: the 2,000th code point is half a flag
    payload = render("discord", Answer(flags))
    check_discord(payload)
    contents = [message["content"] for message in payload["messages"]]
    assert len(contents) > 1 and "".join(contents) == flags
    assert all(len(content) <= DISCORD_MAX_CONTENT for content in contents)
    assert all(content.lstrip("x").replace(FLAG, "") == "" for content in contents)


def test_a_slack_section_never_ends_inside_an_emoji_family() -> None:
    families = "x" + FAMILY * 900
    payload = render("slack", Answer(families))
    check_slack(payload)
    texts = [
        block["text"]["text"]
        for message in payload["messages"]
        for block in message["blocks"]
        if block["type"] == "section"
    ]
    assert len(texts) > 1 and "".join(texts) == families
    assert all(text.lstrip("x").replace(FAMILY, "") == "" for text in texts)
