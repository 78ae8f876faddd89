"""A question mark of any script makes a message a question, never small talk: "ok‽",
"thanks⁈", "ok؟" (Arabic), "¿ok" are asked, not thanked for (bot/pleasantries.py)."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import pleasantries
from bot.assistant.extractive_small_talk import small_talk_reply
from bot.pleasantries import small_talk

# read from the module, so that each test fails on its own where a name is missing
_MARKS = sorted(getattr(pleasantries, "QUESTION_MARKS", "?"))


@pytest.mark.parametrize(
    "text",
    [
        "ok‽", "thanks⁈", "ok⁉", "ok⁇", "ok؟", "¿ok", "gracias¿", "ok﹖", "ok\u037e", "ok՞",
        "ok፧", "ok⸮", "ok⸘", "ok❓", "ok❔", "ok︖", "Thanks, Anna؟",
    ],
)  # fmt: skip
def test_any_question_mark_makes_small_talk_a_question(text: str) -> None:
    assert small_talk(text) is None
    assert small_talk_reply(text) is None


def test_the_same_words_without_the_mark_are_still_small_talk() -> None:
    # an ASCII semicolon is no question mark (only the Greek one, U+037E, is)
    assert [small_talk(text) for text in ("ok!", "thanks!!", "¡gracias!", "ok;")] == [
        "acknowledgement",
        "thanks",
        "thanks",
        "acknowledgement",
    ]


def test_every_question_mark_punctuation_of_unicode_is_known() -> None:
    # a newer Unicode's question mark fails here first, rather than be taken for small talk
    named = {
        chr(code)
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) == "Po"
        and "QUESTION MARK" in unicodedata.name(chr(code), "")
    }
    assert named <= pleasantries.QUESTION_MARKS
    assert {"\u203d", "\u2e18"} <= pleasantries.QUESTION_MARKS  # the interrobangs


@given(st.text(max_size=40), st.sampled_from(_MARKS), st.text(max_size=40))
def test_a_question_mark_anywhere_is_never_small_talk(before: str, mark: str, after: str) -> None:
    assert pleasantries.has_question_mark(f"{before}{mark}{after}")
    assert small_talk(f"{before}{mark}{after}") is None
