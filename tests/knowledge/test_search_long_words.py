"""Compounds of a question ("2.4.1", "config.yaml") are found without backtracking.

The pattern once tried every shorter run of letters at every start of a long word, so a pasted
question that was one long word (a token, a hash, a base64 blob) took time quadratic in its
length: 10,000 letters took seconds and a million would take hours. It is checked here by
results only: the million-letter question returns at once, and on short text the pattern finds
exactly what the backtracking one found.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge import terms
from bot.knowledge.terms import compound_terms

_JOIN = r"(?:[._/-]|(?<=\d),(?=\d))"
BACKTRACKING = re.compile(rf"[^\W_]+(?:{_JOIN}[^\W_]+)+")


def test_a_question_that_is_one_long_word_has_no_compound() -> None:
    assert compound_terms("a" * 1_000_000) == []
    assert compound_terms("x" * 1_000_000 + " 2.4.1") == ["2 4 1"]


@given(st.text(alphabet="ab1 2._-/,é_Ω!", max_size=40))
def test_the_compounds_are_those_the_backtracking_pattern_found(text: str) -> None:
    expected = [m.group(0) for m in BACKTRACKING.finditer(text)]
    assert [m.group(0) for m in terms._COMPOUND.finditer(text)] == expected
