"""Property tests for what ``citecast ask`` and ``citecast report`` print
(bot/commands/output.py ``terminal_text``): no character a terminal acts on is left, and
every other character is printed as it is.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.commands.output import terminal_text

# C0 and C1 controls but line feed and tab, DEL, and the bidi embeddings, overrides, isolates
_ACTS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_MARKS = re.compile("[\u061c\u200e\u200f]")
_HOSTILE = st.sampled_from(
    ["\x1b[2J", "\x1b]0;title\x07", "\r", "\x9b31m", "\u202e", "\u2066", "\u200f", "\u061c",
     "\n", "\t", "\\x1b", "é", "\U0001f600", "\x00", "\x85", "\u2028"]
)  # fmt: skip
_TEXT = st.one_of(st.text(max_size=200), st.lists(_HOSTILE | st.text(max_size=3)).map("".join))


@given(_TEXT, st.booleans())
def test_nothing_a_terminal_acts_on_is_left(text: str, marks: bool) -> None:
    out = terminal_text(text, marks=marks)
    assert _ACTS.search(out) is None
    assert (_MARKS.search(out) is None) or not marks


@given(_TEXT, st.booleans())
def test_other_characters_are_kept_in_order(text: str, marks: bool) -> None:
    out = terminal_text(text, marks=marks)
    shown = _ACTS.sub("", _MARKS.sub("", text) if marks else text)
    rest = iter(out)
    assert all(ch in rest for ch in shown)  # a subsequence: escapes only added
    assert out.count("\n") == text.count("\n")
    assert out.count("\t") == text.count("\t")


@given(st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=200))
def test_text_without_controls_or_bidi_is_unchanged(text: str) -> None:
    plain = _MARKS.sub("", re.sub("[\u202a-\u202e\u2066-\u2069]", "", text))
    assert terminal_text(plain, marks=True) == plain
