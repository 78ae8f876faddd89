"""Sentences that share only a compound's head noun with the question: another thing of its kind.

"What is your refund policy?" asks about one policy, the refund one: "policy" is the head of
the compound "refund policy" and "refund" says which policy it is. A sentence that holds the
head alone, written after another word ("The retry policy decides …", or any sentence under the
heading "Retry policy"), is about another policy. While a sentence of another passage holds the
word that says which ("Hotel costs are refunded …"), quoting the retry policy beside it is
padding: :func:`other_kinds` names such sentences, and the answerer does not quote them, nor
counts the head a word the passages hold when only such sentences hold it (as a word no passage
holds, it does not count against the sentence that answers).

A compound is read where the question writes one after a determiner ("the", "your", "our" …):
"your refund policy", "the Slack app"; "How do I install citecast?" writes none ("install" is
a verb). A question of a few keywords alone ("refund policy", "holiday approval") is read as
one compound, as it is said. Where no other passage holds the deciding word, nothing is left
out: whether such an answer is given at all is for the other rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.assistant.extractive_candidates import Candidate, held_words
from bot.assistant.extractive_keys import word_key
from bot.assistant.extractive_missing import COURTESY, LIGHT_VERBS
from bot.knowledge.terms import STOP_WORDS, words

# A question of up to this many words, all of them keywords, is one compound ("refund policy").
_KEYWORDS = 4
# the words a noun phrase opens with: what follows, up to a word of another kind, is one thing
_DETERMINERS = frozenset(
    {"the", "a", "an", "your", "our", "my", "their", "its", "his", "her", "this", "that"}
    | {"these", "those"}
)


@dataclass(frozen=True)
class Compound:
    """A noun compound of the question ("refund policy"): its head noun and the words before it
    that say which one (both stemmed)."""

    head: str
    modifiers: frozenset[str]


# words before a noun that say how much of it, not which one ("every policy")
_QUANTIFIERS = frozenset({"every", "whole", "entire", "many", "several"})


def _content(word: str) -> bool:
    return (
        word.isalpha()
        and word.isascii()
        and word not in STOP_WORDS
        and word not in _DETERMINERS
        and word not in _QUANTIFIERS
        and word not in COURTESY
        and word not in LIGHT_VERBS
    )


def question_compounds(question: str) -> list[Compound]:
    """The noun compounds ``question`` writes after a determiner, or the question itself when
    it is a few keywords: "What is your refund policy?" and "refund policy" give one, head
    "policy" and modifier "refund" (stemmed)."""
    said = words(question)
    if 1 < len(said) <= _KEYWORDS and all(map(_content, said)):
        return [Compound(word_key(said[-1]), frozenset(word_key(w) for w in said[:-1]))]
    found: list[Compound] = []
    for i, word in enumerate(said):
        if word not in _DETERMINERS:
            continue
        run: list[str] = []
        for following in said[i + 1 :]:
            if not _content(following):
                break
            run.append(following)
        if len(run) > 1:
            found.append(Compound(word_key(run[-1]), frozenset(word_key(w) for w in run[:-1])))
    return found


def _after_another_word(head: str, modifiers: frozenset[str], text: str) -> bool | None:
    """Whether every ``head`` in ``text`` follows a word that says which other one it is
    ("retry policy"); None when ``text`` does not write the head."""
    said = words(text)
    places = [i for i, w in enumerate(said) if word_key(w) == head]
    if not places:
        return None
    return all(
        i > 0 and _content(said[i - 1]) and word_key(said[i - 1]) not in modifiers for i in places
    )


def _names_another(candidate: Candidate, compound: Compound) -> bool:
    """Whether ``candidate`` writes (itself or in its headings) the compound's head only after
    another word, and none of the words that say which one the question asks about."""
    if compound.modifiers & held_words(candidate):
        return False
    # each heading of the path on its own: "Handbook > Policy" writes no "handbook policy"
    headings = (candidate.source.section or "").split(" > ")
    read = [
        _after_another_word(compound.head, compound.modifiers, text)
        for text in (candidate.text, *headings)
    ]
    return any(read) and False not in read


def other_kinds(
    compounds: Sequence[Compound],
    candidates: Sequence[Candidate],
    counted: frozenset[str],
    eligible: Sequence[bool],
) -> frozenset[int]:
    """The candidates (by index) that hold no counted question word (``counted``) but the head
    of one of the question's ``compounds`` (:func:`question_compounds`), written after another
    word ("retry policy" for "your refund policy"), while an ``eligible`` sentence (one that
    holds enough of the question to be quoted) of another passage holds a word that says which
    one the question asks about ("Hotel costs are refunded …")."""
    out: set[int] = set()
    for compound in compounds:
        if compound.head not in counted:
            continue
        deciding = {
            c.rank
            for c, ok in zip(candidates, eligible, strict=True)
            if ok and compound.modifiers & counted & held_words(c)
        }
        for i, c in enumerate(candidates):
            if not deciding - {c.rank} or (counted & held_words(c)) - {compound.head}:
                continue
            if _names_another(c, compound):
                out.add(i)
    return frozenset(out)
