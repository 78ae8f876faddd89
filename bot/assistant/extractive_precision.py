"""Which scored sentences the built-in answerer may quote: enough of the question, whole sense.

Three rules keep an answer from stitching unrelated sentences together:

- A sentence, with its section headings, must hold at least half of the question's words that
  the passages hold (the rule the passages as a whole and a record's values already meet, of
  all the question's words). "How do I update the index when a document changes?" is not
  answered by "Rotate any token … and update the environment": it holds one word of four.
  Greetings, the verbs that only carry a question (see
  :mod:`bot.assistant.extractive_missing`), the cuts of a Chinese or Japanese run (which are no
  words) and words no passage holds ("returns" where the documents say "answers") are not
  counted. A sentence that holds only half of them, while its own passage holds the others in
  other sentences, is about another thing of that passage (:func:`leaves_out`): "When does
  the office open?" is not answered by "The parking garage opens at 6" beside "The office is
  at 12 Harbour Street", nor by that address.
- The best sentence, the one an answer is built around, must hold more than half of them,
  each weighed by how rare it is, unless a heading over it names one (:func:`can_lead`):
  half is enough for the sentences that follow it, not for the answer itself.
- A sentence that opens by pointing back ("It …", "This …", "They …", "Clicking it …", "Your
  manager approves it …") is read with the sentences before it in its passage, or not at all:
  "Your manager approves it within three working days" says nothing without the request that
  "it" is. A possessive after the subject it belongs to does not point back: "The server
  restarts its workers every hour" names what "its" is ("Its workers restart hourly" does not).
  A sentence that points back to a quoted one and holds a question word itself
  continues it (:func:`continuations`): "A document without any of these is public" after
  the ways to give a document an audience.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

from bot.assistant.extractive_keys import word_key
from bot.assistant.extractive_missing import COURTESY, LIGHT_VERBS
from bot.knowledge.cjk import has_cjk
from bot.knowledge.terms import STOP_WORDS, words

NOT_COUNTED = frozenset(word_key(w) for w in COURTESY | LIGHT_VERBS)

# Words that point back at something an earlier sentence named, when among a sentence's first
# few words: "It holds …", "Clicking it opens …", "Your manager approves it within …". Further on,
# a pronoun more likely refers to a noun of its own sentence ("… and install it in your
# workspace"). "That" and "such" point back only as the first word ("Check that …" does not).
_POINTERS = frozenset(["it", "its", "they", "them", "their", "this", "these", "those"])
_FIRST_POINTERS = frozenset({"that", "such"})
_OPENING = 4
# A possessive names what its own sentence's subject has when it follows a noun and a verb: "The
# server restarts its workers", "The servers restart their workers", "citecast stores its
# index". "Restart its workers", "To change its name", "The size of its cache" name no owner
# before it. Without an article, only a verb in the third person ("-s") tells "citecast
# stores" from "Once installed, open".
_POSSESSIVES = frozenset({"its", "their"})
_ARTICLES = frozenset({"the", "a", "an", "each", "every"})
# "any of these", "none of them", "each of those": wherever in a sentence, a pronoun after "of"
# counts what an earlier sentence listed ("A document without any of these is public.").
_OF_POINTER = re.compile(r"\bof (?:these|those|them)\b", re.IGNORECASE)
# "This page explains …" points at the document itself, not back
_DOCUMENT = frozenset(
    ["page", "guide", "handbook", "manual", "document", "section", "chapter", "faq"]
)


class _Sentence(Protocol):
    @property
    def rank(self) -> int: ...
    @property
    def position(self) -> int: ...


class _Worded(_Sentence, Protocol):
    @property
    def terms(self) -> frozenset[str]: ...
    @property
    def context(self) -> frozenset[str]: ...


def counted_words(wanted: frozenset[str], found: frozenset[str]) -> frozenset[str]:
    """The question's words (stemmed keys) that a sentence's coverage is measured against:
    those of ``wanted`` that the passages hold (``found``), but for greetings, verbs that only
    carry a question and CJK cuts."""
    return frozenset(t for t in wanted & found if t not in NOT_COUNTED and not has_cjk(t))


def covers_enough(
    held: frozenset[str],
    counted: frozenset[str],
    passage: frozenset[str] = frozenset(),
    framing: frozenset[str] = frozenset(),
) -> bool:
    """Whether a sentence that holds ``held`` (itself or in its headings) holds at least half
    of the ``counted`` question words (:func:`counted_words`); with none counted, it does. With
    the words of its passage's sentences (``passage``) and of what frames it (``framing``: its
    headings, the record lines before it), one that holds only half must not leave out words
    the passage holds in other sentences (:func:`leaves_out`)."""
    enough = 2 * len(held & counted) >= len(counted)
    return enough and not leaves_out(held, counted, passage, framing)


def can_lead(
    held: frozenset[str],
    counted: frozenset[str],
    framing: frozenset[str],
    weight: Mapping[str, float],
) -> bool:
    """Whether a sentence that holds ``held`` (with its headings and what it is read with) may
    be the one an answer is built around: it holds more than half of the ``counted`` question
    words, each weighed by how rare it is (``weight``), or is framed by one (its heading or a
    record line before it holds one: ``framing``). Half is enough for the sentences that follow
    it, not for the answer itself: "When does the office open?" is not answered by "The parking
    garage opens at 6", while "Where is the walrus documented?" is by the one sentence naming
    the walrus, and "What time do backups run?" by "Back up the store every night" under
    "Backups"."""
    if not counted or framing & counted:
        return True
    return 2 * sum(weight.get(t, 0.0) for t in held & counted) > sum(
        weight.get(t, 0.0) for t in counted
    )


def found(wanted: frozenset[str], candidates: Sequence[_Worded]) -> bool:
    """Whether the sentences (or their headings) contain at least half the question's words,
    one of them specific: a word most of the sentences contain ("citecast" in "What does
    citecast cost?") says nothing about what else the question asks, unless it is all it asks.
    Greetings and the verbs that only carry a question are not among the words (unless they
    are all it asks): "Which statuses exist?" asks about statuses, so the one sentence that
    lists them is all it needs, though every sentence found holds "status"."""
    wanted = wanted - NOT_COUNTED or wanted
    headings = frozenset().union(*(c.context for c in candidates))
    covered = [t for t in wanted if t in headings or any(t in c.terms for c in candidates)]
    if len(covered) * 2 < len(wanted):
        return False
    if len(covered) == len(wanted):
        return True
    return any(2 * sum(t in c.terms for c in candidates) <= len(candidates) for t in covered)


def leaves_out(
    held: frozenset[str],
    counted: frozenset[str],
    passage: frozenset[str],
    framing: frozenset[str] = frozenset(),
) -> bool:
    """Whether a sentence that holds ``held`` (itself, its headings and what it is read with)
    holds only half of the ``counted`` question words while the other sentences of its passage
    (their words: ``passage``) hold every word it lacks. A two-word question ("office",
    "open") matches one word of such a sentence in another sense: the passage names the
    office in one sentence and says that a garage "opens" in the next.

    A sentence framed by a question word (its heading, or a record line before it, holds one:
    ``framing``) is about that word, as every sentence under the heading is: "Back up the store
    every night" under "Backups" answers "What time do backups run?" though "while citecast
    runs" is in the next sentence."""
    kept = held & counted
    lacking = counted - kept
    if framing & counted or 2 * len(kept) != len(counted):
        return False
    return bool(lacking) and lacking <= passage


def passage_words(candidates: Iterable[_Worded]) -> dict[int, frozenset[str]]:
    """The words of each passage's sentences, by passage rank."""
    by_rank: dict[int, frozenset[str]] = {}
    for c in candidates:
        by_rank[c.rank] = by_rank.get(c.rank, frozenset()) | c.terms
    return by_rank


def points_back(sentence: str) -> bool:
    """Whether ``sentence`` opens with a word that refers to an earlier sentence, or counts
    what one listed ("any of these")."""
    if _OF_POINTER.search(sentence):
        return True
    opening = [w.lower() for w in words(sentence)[: _OPENING + 1]]
    for i, word in enumerate(opening[:_OPENING]):
        pointer = word in _POINTERS or (i == 0 and word in _FIRST_POINTERS)
        if (
            pointer
            and not _DOCUMENT.intersection(opening[i + 1 : i + 2])
            and not _owner_named(opening, i)
        ):
            return True
    return False


def _owner_named(opening: Sequence[str], i: int) -> bool:
    """Whether ``opening[i]`` is a possessive that follows the subject it belongs to and that
    subject's verb (see ``_POSSESSIVES``)."""
    if opening[i] not in _POSSESSIVES or i < 2 or opening[i - 1] in STOP_WORDS:
        return False
    if i >= 3 and opening[0] in _ARTICLES:
        return True
    verb, subject = opening[i - 1], opening[i - 2]
    return verb.endswith("s") and not verb.endswith("ss") and subject not in STOP_WORDS


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


def continuations(
    chosen: Iterable[int],
    candidates: Sequence[_C],
    groups: Sequence[list[int] | None],
    place: dict[tuple[int, int], int],
    question_words: Callable[[_C], frozenset[str]],
) -> list[int]:
    """The sentences after the ``chosen`` ones that continue them, each in its passage's
    reading order: a sentence points back to the one before it (its ``groups`` entry, see
    :func:`read_with`, holds it) and holds a question word itself ("A document without any of
    these is public." after the ways to give a document an audience, asked how to restrict
    one). A chain continues ("It …", then "They …") while each holds a question word."""
    taken = set(chosen)
    following: list[int] = []
    for start in sorted(taken, key=lambda i: (candidates[i].rank, candidates[i].position)):
        last = start
        after = place.get((candidates[last].rank, candidates[last].position + 1))
        while after is not None and after not in taken:
            group = groups[after]
            if group is None or last not in group or not question_words(candidates[after]):
                break
            taken.add(after)
            following.append(after)
            last = after
            after = place.get((candidates[last].rank, candidates[last].position + 1))
    return following
