"""A shortened title or text keeps whole characters as a reader sees them (graphemes).

``bot.knowledge.title_caps.capped`` and ``renderers.limits.truncate`` cut by code point: a
decomposed "ぼ" lost its voicing mark (U+3099) and read "ほ", a flag was cut to a lone regional
indicator, an emoji family ended in a zero-width joiner.
"""

from __future__ import annotations

import unicodedata
from itertools import accumulate

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.grapheme_cuts import grapheme_cut, is_grapheme_boundary
from bot.knowledge.title_caps import capped
from renderers.limits import truncate

VOICED_KANA = unicodedata.normalize("NFD", "がぎぐげござじずぜぞだぢづでどばびぶべぼ")
FLAGS = "🇩🇪🇫🇷🇪🇸🇵🇱🇯🇵🇨🇳"
FAMILY = "👩\u200d👩\u200d👧\u200d👦"

# Whole characters, each one grapheme cluster, that no neighbour here joins: a text made of
# them may be cut exactly between two of them.
CLUSTERS = (
    "a",
    "Z",
    " ",
    ".",
    "-",
    "\r\n",
    "e\u0301",  # e and a combining acute accent
    "\u307b\u3099",  # ぼ decomposed: ほ and the combining voicing mark
    "\u30cf\u309a",  # パ decomposed: ハ and the semi-voicing mark
    "\uff8a\uff9f",  # half-width ﾊﾟ
    "\u0915\u093f",  # कि: a consonant and its vowel sign
    "ﺏ",
    "ש\u05b8",  # a Hebrew letter and its vowel point
    "🇩🇪",
    "🇯🇵",
    FAMILY,
    "👍🏽",  # a skin tone
    "❤\ufe0f",  # emoji style
    "\u2764\ufe0e",  # text style
    "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # England: tags
    "\u1100\u1161\u11a8",  # 각 spelled in jamo (L V T)
    "\u1100\u1161",  # 가 in jamo (L V)
    "각",
    "가",
    "中",
)


def _boundaries(parts: list[str]) -> set[int]:
    return {0, *accumulate(len(part) for part in parts)}


texts = st.lists(st.sampled_from(CLUSTERS), min_size=1, max_size=60)


@given(texts)
def test_every_boundary_is_found_and_no_other(parts: list[str]) -> None:
    text = "".join(parts)
    bounds = _boundaries(parts)
    found = {i for i in range(len(text) + 1) if is_grapheme_boundary(text, i)}
    assert found == bounds


@given(texts, st.integers(min_value=0, max_value=200))
def test_a_cut_moves_back_to_the_start_of_its_character(parts: list[str], index: int) -> None:
    text = "".join(parts)
    index = min(index, len(text))
    assert grapheme_cut(text, index) == max(b for b in _boundaries(parts) if b <= index)


@given(texts, st.integers(min_value=2, max_value=120))
def test_a_shortened_text_keeps_whole_characters_at_every_limit(
    parts: list[str], limit: int
) -> None:
    text = "".join(parts)
    bounds = _boundaries(parts)
    for short in (capped(text, limit), truncate(text, limit)):
        assert len(short) <= limit
        kept = short.removesuffix("…") if short != text else short
        assert text.startswith(kept) and len(kept) in bounds, (text, short)


@pytest.mark.parametrize("title", [VOICED_KANA * 12, FLAGS * 20, FAMILY * 40])
def test_a_shortened_title_keeps_whole_graphemes(title: str) -> None:
    for short in (capped(title), truncate(title, 80)):
        kept = short.removesuffix("…")
        rest = title[len(kept) :]
        assert title.startswith(kept) and len(kept) > len(short) - 8  # a character's length
        assert not unicodedata.combining(rest[0]), short[-6:]
        assert rest[0] != "\u200d" and not kept.endswith("\u200d"), short[-6:]
        assert sum(1 for ch in kept if 0x1F1E6 <= ord(ch) <= 0x1F1FF) % 2 == 0, short[-6:]


def test_a_run_of_flags_pairs_from_its_start() -> None:
    # the second indicator of "🇩🇪" closes a flag; the one after it opens the next
    run = "x🇩🇪🇫"
    assert [is_grapheme_boundary(run, i) for i in range(len(run) + 1)] == [
        True,
        True,
        False,
        True,
        True,
    ]


def test_a_character_longer_than_any_real_one_is_cut_where_it_was() -> None:
    """A letter under 100 marks (a "Zalgo" title) is no character to keep whole: the cut
    stays at the limit rather than leaving nothing of the title."""
    zalgo = "a" + "\u0301" * 100
    assert grapheme_cut(zalgo, 80) == 80
    assert capped(zalgo * 3) != "…"


def test_ascii_and_text_within_the_limit_are_as_before() -> None:
    assert truncate("The link expires after seven days.", 20) == "The link expires…"
    assert capped("Short title") == "Short title"
    assert truncate("abcdefghij", 5) == "abcd…"
