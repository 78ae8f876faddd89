"""Which scored sentences the built-in answerer may quote: enough of the question, whole sense.

Two rules keep an answer from stitching unrelated sentences together:

- A sentence, with its section headings, must hold at least half of the question's words that
  the passages hold (the rule the passages as a whole and a record's values already meet, of
  all the question's words). "How do I update the index when a document changes?" is not
  answered by "Rotate any token … and update the environment": it holds one word of four.
  Greetings, the verbs that only carry a question (see
  :mod:`bot.assistant.extractive_missing`), the cuts of a Chinese or Japanese run (which are no
  words) and words no passage holds ("returns" where the documents say "answers") are not
  counted.
- A sentence that opens by pointing back ("It …", "This …", "They …", "Clicking it …", "Your
  manager approves it …") is read with the sentences before it in its passage, or not at all:
  "Your manager approves it within three working days" says nothing without the request that
  "it" is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from bot.assistant.extractive_missing import COURTESY, LIGHT_VERBS
from bot.knowledge.cjk import has_cjk
from bot.knowledge.terms import stem, words

_NOT_COUNTED = frozenset(stem(w) for w in COURTESY | LIGHT_VERBS)

# Words that point back at something an earlier sentence named, when among a sentence's first
# few words: "It holds …", "Clicking it opens …", "Your manager approves it within …". Further on,
# a pronoun more likely refers to a noun of its own sentence ("… and install it in your
# workspace"). "That" and "such" point back only as the first word ("Check that …" does not).
_POINTERS = frozenset(["it", "its", "they", "them", "their", "this", "these", "those"])
_FIRST_POINTERS = frozenset({"that", "such"})
_OPENING = 4
# "This page explains …" points at the document itself, not back
_DOCUMENT = frozenset(
    ["page", "guide", "handbook", "manual", "document", "section", "chapter", "faq"]
)


class _Sentence(Protocol):
    @property
    def rank(self) -> int: ...
    @property
    def position(self) -> int: ...


def counted_words(wanted: frozenset[str], found: frozenset[str]) -> frozenset[str]:
    """The question's words (stemmed keys) that a sentence's coverage is measured against:
    those of ``wanted`` that the passages hold (``found``), but for greetings, verbs that only
    carry a question and CJK cuts."""
    return frozenset(t for t in wanted & found if t not in _NOT_COUNTED and not has_cjk(t))


def covers_enough(held: frozenset[str], counted: frozenset[str]) -> bool:
    """Whether a sentence that holds ``held`` (itself or in its headings) holds at least half
    of the ``counted`` question words (:func:`counted_words`); with none counted, it does."""
    return 2 * len(held & counted) >= len(counted)


def points_back(sentence: str) -> bool:
    """Whether ``sentence`` opens with a word that refers to an earlier sentence."""
    opening = [w.lower() for w in words(sentence)[: _OPENING + 1]]
    for i, word in enumerate(opening[:_OPENING]):
        pointer = word in _POINTERS or (i == 0 and word in _FIRST_POINTERS)
        if pointer and not _DOCUMENT.intersection(opening[i + 1 : i + 2]):
            return True
    return False


_C = TypeVar("_C", bound=_Sentence)


def places(candidates: Sequence[_Sentence]) -> dict[tuple[int, int], int]:
    """Each candidate's index by its place: (passage rank, position in the passage)."""
    return {(c.rank, c.position): i for i, c in enumerate(candidates)}


def read_with(
    i: int,
    candidates: Sequence[_C],
    text: Callable[[_C], str],
    place: dict[tuple[int, int], int],
) -> list[int] | None:
    """The candidates sentence ``i`` must be quoted with, in reading order and ending with
    ``i``: the sentences before it in its passage back to one that does not point back. None
    when the passage starts with a sentence that points back (what it means is elsewhere)."""
    group = [i]
    while points_back(text(candidates[group[0]])):
        c = candidates[group[0]]
        before = place.get((c.rank, c.position - 1))
        if before is None:
            return None
        group.insert(0, before)
    return group
