"""How many times a text says something happens: "answered once", "retried twice", "3 times".

A repetition count is no number to the number check (``bot.text_terms.numbers``): "once" and
"twice" are words, and "answered twice" held every content word of "a Slack event that arrives
twice is answered once", so the claim scored as fully supported. A count is read with the word
it counts (the last content word before it in its clause: "answered twice" -> ``("answer",
2)``), so a passage that counts the same word differently ("answered once") contradicts the
claim, while a "twice" elsewhere in the passage ("arrives twice") does not back it.

"once" is a count only where it cannot be the conjunction ("removed once the platform confirms
delivery"): at the end of its clause, before "a"/"an"/"per"/"every"/"each"/"or" ("once a
quarter", "once or twice"), or after "only"/"just"/"exactly"/"least"/"most"/"than"; "at
once" is no count either. A count inside a negated clause ("is never answered twice") states
nothing and is left out.
"""

from __future__ import annotations

import re

from bot.knowledge.terms import stem
from bot.text_shortcuts import may_hold
from bot.text_terms import content_terms, negated

_SMALL = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_COUNT_RE = re.compile(
    rf"\b(?:(once)|(twice)|(thrice)|(\d{{1,6}}|{'|'.join(_SMALL)})\s+times)\b", re.IGNORECASE
)
# every match of _COUNT_RE holds one of these
_COUNT_HINTS = ("once", "twice", "thrice", "times")
# "once" before one of these counts ("once a quarter", "once or twice"); before anything else
# ("once the platform confirms") it is the conjunction.
_ONCE_BEFORE_RE = re.compile(r"\s*(?:$|[,;:.!?)\u2013\u2014]|(?:a|an|per|every|each|or)\b)", re.I)
_ONCE_AFTER_RE = re.compile(r"\b(?:only|just|exactly|least|most|than)\s*$", re.IGNORECASE)
# "at once" is "at the same time", no count
_AT_ONCE_RE = re.compile(r"\bat\s*$", re.IGNORECASE)
_CLAUSE_END_RE = re.compile(r"[,;:.!?()\u2013\u2014]")
# words between a counted word and its count ("retried at least twice"): not what is counted
_MODIFIERS = frozenset(stem(word) for word in ("least", "most", "exactly", "only", "just", "than"))


def counts(text: str) -> frozenset[tuple[str, int]]:
    """Each repetition count of ``text`` with the stemmed word it counts (see the module)."""
    if not may_hold(text, _COUNT_HINTS) or not _COUNT_RE.search(text):
        return frozenset()
    found: set[tuple[str, int]] = set()
    for match in _COUNT_RE.finditer(text):
        once, twice, thrice, figure = match.groups()
        before = _CLAUSE_END_RE.split(text[: match.start()])[-1]
        if once and (
            _AT_ONCE_RE.search(before)
            or not (_ONCE_BEFORE_RE.match(text, match.end()) or _ONCE_AFTER_RE.search(before))
        ):
            continue
        if negated(before):
            continue
        counted = [t for t in content_terms(before) if t not in _MODIFIERS]
        if not counted:
            continue
        if once or twice or thrice:
            value = 1 if once else 2 if twice else 3
        elif figure.isdigit():
            value = int(figure)
        elif figure.lower() in _SMALL:
            value = _SMALL[figure.lower()]
        else:
            continue  # "ſix times": a letter that only folds to "s" (reading it raised KeyError)
        found.add((counted[-1], value))
    return frozenset(found)


def counts_agree(premise: str, claim: str) -> bool:
    """Whether every count ``claim`` gives agrees with ``premise``: where the premise counts
    the same word, one of its counts is the claim's ("answered twice" fails against "answered
    once"). A word the premise does not count is left to the other checks."""
    claimed = counts(claim)
    if not claimed:
        return True
    return counts_match(counts(premise), claimed)


def counts_match(stated: frozenset[tuple[str, int]], claimed: frozenset[tuple[str, int]]) -> bool:
    """:func:`counts_agree` on counts read before: ``stated`` the premise's, ``claimed`` the
    claim's."""
    for word, value in claimed:
        values = {v for w, v in stated if w == word}
        if values and value not in values:
            return False
    return True


__all__ = ["counts", "counts_agree", "counts_match"]
