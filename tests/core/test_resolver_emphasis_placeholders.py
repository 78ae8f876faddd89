"""A placeholder right after emphasis that went with markers is a placeholder, as after a marker.

``[n]`` right after a word character is text (``snake_[n]``), and ``_`` is one; but in
``_[2]_[n]`` the closing ``_`` is the marker's (bot.marker_emphasis), so ``[n]`` follows a
marker as in ``[2][n]``. Kept as text, it read as a placeholder once the resolver wrote
``[^1][n]`` (or dropped the group: ``[n]``), so the output was not canonical. Checked with
``resolve()`` and the stream in several splits (``resolved_everywhere``, which cuts right at
the closing run too), and the output read again has only canonical ``[^n]`` markers.
"""

from __future__ import annotations

import re

import pytest

from bot.markers import Grammar, find_markers
from bot.resolver import resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

OUTPUT = Grammar(bare_numbers=True)

# raw, expected text ([1] and [2] are sources, [9] is out of range)
CASES = [
    ("_[2]_[n]", "[^1]"),
    ("_[citation needed]_[n]", ""),
    ("[[1]]_[1]_[n]^l^x", "[^1]\u200b^l^x"),
    ("__[2]__[N]", "[^1]"),
    ("Fact _[9]_[n].", "Fact."),
    ("Fact _[1][2]_[#] x", "Fact [^1][^2] x"),
    ("_<CIT a />_[...]", "[^1]"),
    ("Fact _[1]_[n][2]", "Fact [^1][^2]"),
]

# raw, expected text: a "[n]" after a word's "_", or after emphasis that stayed the writer's
# (it does not close right after the marker), is the reader's text, read back as text too
KEPT = [
    ("snake_[n]", "snake_[n]"),
    ("a_[9]_[n]", "a__[n]"),  # "a_" is a word: no emphasis opens there
    ("_[2]__[n]", "_[^1]__[n]"),  # "__" does not close "_": the writer's emphasis
]


def reads_back(text: str) -> None:
    """Every marker ``text`` holds, read again, is a ``[^n]`` footnote."""
    found = find_markers(text, OUTPUT)
    assert all(re.fullmatch(r"\[\^\d+\]", marker.raw) for marker in found), found


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_placeholder_after_emphasised_markers_is_dropped(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
    reads_back(text)
    dropped = resolve(raw, two_sources()).dropped
    assert dropped[-1].reason == "placeholder"
    assert raw[dropped[-1].offset] == "["


@pytest.mark.parametrize(("raw", "text"), KEPT)
def test_brackets_after_a_word_or_the_writers_emphasis_stay_text(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
    reads_back(text)
    assert all(d.reason != "placeholder" for d in resolve(raw, two_sources()).dropped)
