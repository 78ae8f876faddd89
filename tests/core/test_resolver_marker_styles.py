"""Marker styles small local models write: superscripts, daggers in square brackets and links
to a fragment of the page (bot.marker_styles, bot.marker_parse).

Each shows the registry number the model saw; left as text it would point at another source of
the renumbered list, so each reads like ``[2]``, or stays the writer's text where it may be
prose (``m<sup>2</sup>``). Checked with ``resolve()`` and the stream fed in several splits, one
character at a time included (``resolved_everywhere``).
"""

from __future__ import annotations

import pytest

from tests.core.resolver_splits import resolved_everywhere

SUPERSCRIPT_TAGS = [
    ("Fact <sup>2</sup>.", "Fact [^1]."),
    ("Fact.<sup>2</sup>", "Fact.[^1]"),
    ("Fact,<sup>1, 2</sup> more", "Fact,[^1][^2] more"),
    ("Fact <SUP>2</SUP>.", "Fact [^1]."),
    ("<sup>2</sup> fact", "[^1] fact"),
    # units, powers and a word right before: the writer's superscript
    ("Area 5 m<sup>2</sup>.", "Area 5 m<sup>2</sup>."),
    ("x<sup>2</sup> grows", "x<sup>2</sup> grows"),
    ("It is 10<sup>2</sup>.", "It is 10<sup>2</sup>."),
    ("Fact<sup>2</sup>.", "Fact<sup>2</sup>."),
    ("It is (x+1)<sup>2</sup>.", "It is (x+1)<sup>2</sup>."),
    # no source of this turn, or no number a source can have: text, never dropped
    ("Fact <sup>9</sup>.", "Fact <sup>9</sup>."),
    ("Fact <sup>02</sup>.", "Fact <sup>02</sup>."),
    ("Fact <sup>2, 9</sup>.", "Fact <sup>2, 9</sup>."),
    ("Fact <sup>a</sup>.", "Fact <sup>a</sup>."),
    ("Fact <sup>2</sup", "Fact <sup>2</sup"),
    ("Fact <sub>2</sub>.", "Fact <sub>2</sub>."),
]

DAGGERS = [
    ("Fact [2†source].", "Fact [^1]."),
    ("Fact [1:0†source] [2†doc].", "Fact [^1][^2]."),
    ("Fact [9†source].", "Fact."),
    ("Fact [x†source].", "Fact [x†source]."),
    ("Fact [2†source", "Fact [2†source"),
]

FRAGMENT_LINKS = [
    ("Fact [2](#install).", "Fact [^1]."),
    ("Fact [1, 2](#a).", "Fact [^1][^2]."),
    ("Fact [[2]](#install).", "Fact [^1]."),
    ("Fact [9](#install).", "Fact."),
    # a label of words, a picture, a number no source has, a real link: as written
    ("See [the steps](#install).", "See [the steps](#install)."),
    ("See ![2](#install).", "See ![2](#install)."),
    ("See [0](#install).", "See [0](#install)."),
    ("See [2](https://elsewhere.test/#install).", "See [2](https://elsewhere.test/#install)."),
]

CARETS = [
    ("Fact ^[2]^.", "Fact [^1]."),
    ("Fact ^[2].", "Fact [^1]."),
    ("Fact [^2]^.", "Fact [^1]."),
    ("Fact [^2^].", "Fact [^1]."),
    ("Fact ^[9]^.", "Fact."),
    ("Fact ^[1]^^[2]^.", "Fact [^1][^2]."),
    # only the last caret of a run belongs to the marker; the one left is kept apart from the
    # footnote by a zero-width space ("^[^1]" would read as a caret marker again)
    ("a ^^[2]^ b", "a ^\u200b[^1] b"),
    # a caret before no marker is the writer's
    ("x^2 and a^[b]", "x^2 and a^[b]"),
    ("end ^", "end ^"),
]


@pytest.mark.parametrize(("raw", "text"), SUPERSCRIPT_TAGS)
def test_a_superscript_number_after_a_space_or_punctuation(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


@pytest.mark.parametrize(("raw", "text"), DAGGERS)
def test_a_dagger_in_square_brackets(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


@pytest.mark.parametrize(("raw", "text"), FRAGMENT_LINKS)
def test_a_number_linked_to_a_fragment(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


@pytest.mark.parametrize(("raw", "text"), CARETS)
def test_carets_around_a_marker(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
