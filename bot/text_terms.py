"""Words, numbers and quoted phrases of a text, for lexical support scoring.

Words, stop words and the light stemmer are the search index's own (``bot.knowledge.terms``),
so "installs", "installed" and "installing" meet "install" here exactly as they do in search.
Numbers are read by :mod:`bot.text_numbers` (re-exported here); a number in words counts
among a text's terms as its figure ("twenty-five seats" covers "25 seats").
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from bot.knowledge.terms import STOP_WORDS, stem
from bot.sentence_rules import FULL_STOPS, stop_ends_sentence
from bot.text_numbers import SCALES, WORD_VALUES
from bot.text_numbers import number_spans as number_spans
from bot.text_numbers import number_values as number_values
from bot.text_numbers import numbers as numbers
from bot.text_shortcuts import fast_words, may_hold

_FREQUENCY_RE = re.compile(
    r"\b(?:every|each|per|once an?|once per)\s+"
    r"(second|minute|hour|night|day|week|month|quarter|year)"
    r"|\b(hourly|nightly|daily|weekly|monthly|quarterly|yearly|annually)\b",
    re.IGNORECASE,
)
# every match of _FREQUENCY_RE holds one of these
_FREQUENCY_HINTS = (
    *("every", "each", "per", "once", "hourly", "nightly", "daily", "weekly"),
    *("monthly", "quarterly", "yearly", "annually"),
)
_FREQUENCY_WORDS = {
    "hourly": "hour",
    "nightly": "day",
    "night": "day",
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "quarterly": "quarter",
    "yearly": "year",
    "annually": "year",
}
_CODE_SPAN_RE = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_QUOTED_RE = re.compile(r"[\"“”]([^\"“”]{3,200})[\"“”]")
# Words that turn a statement into its opposite ("does not support", "never", "cannot"):
# content-word coverage alone cannot tell "X supports Y" from "X does not support Y".
# Not negations: "No, ..." answering a question, "not only ... but also", "no matter how".
_NEGATION_RE = re.compile(
    r"\b(?:no(?!\s*[,.!;:]|\s+(?:matter|doubt)\b)|not(?!\s+(?:only|just)\b)"
    r"|never|none|nothing|nobody|neither|nor|cannot|without)\b|\wn['’]t\b",
    re.IGNORECASE,
)


# A clause ends at a comma, semicolon, colon, bracket, dash or full stop, a sentence at a full
# stop before a space (the Hindi danda, the Arabic question mark and the other full stops of
# bot.sentence_rules too); a "." only where that rule ends a sentence, so "never paid by Prof.
# Weber" is one clause, as the claim splitter reads "Prof. Weber".
_CLAUSE_END_RE = re.compile(rf"[,;:()\u2013\u2014{re.escape(FULL_STOPS)}]")
_SENTENCE_END_RE = re.compile(rf"(?<=[{re.escape(FULL_STOPS)}])\s+")
_OR_RE = re.compile(r"\b(?:or|nor)\b", re.IGNORECASE)
_BUT_RE = re.compile(r"\b(?:but|yet|whereas|while)\b", re.IGNORECASE)
_cached_stem = lru_cache(maxsize=65_536)(stem)
CJK_SENTENCE_ENDS = "。！？｡"


def has_cjk_sentence_end(text: str) -> bool:
    """Whether ``text`` holds a CJK full stop, ``！`` or ``？`` (which no space follows).

    Sentence splitters take their slower CJK-aware pattern only then, so English is split at
    the speed (and exactly the way) it was before.
    """
    return any(mark in text for mark in CJK_SENTENCE_ENDS)


def content_terms(text: str) -> list[str]:
    """Stemmed tokens that carry meaning (no stop words, no one-letter tokens)."""
    return list(_content_terms(text))


@lru_cache(maxsize=8_192)
def _content_terms(text: str) -> tuple[str, ...]:
    tokens = fast_words(text)
    if not WORD_VALUES.keys().isdisjoint(tokens):
        tokens = _figures(tokens)
    # (a list, not a generator: every token of every text read passes here)
    return tuple(
        [_cached_stem(t) for t in tokens if t not in STOP_WORDS and (len(t) > 1 or t.isdigit())]
    )


def _figures(tokens: list[str]) -> list[str]:
    """``tokens`` with each number in words as its figure, so that "twenty-five seats" covers
    "25 seats" (tens and a unit, then "hundred" or "thousand", make one number)."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        value = WORD_VALUES.get(tokens[i])
        if value is None:
            out.append(tokens[i])
            i += 1
            continue
        i += 1
        if value >= 20 and i < len(tokens) and 0 < WORD_VALUES.get(tokens[i], 10) < 10:
            value += WORD_VALUES[tokens[i]]
            i += 1
        if i < len(tokens) and tokens[i] in SCALES:
            value *= SCALES[tokens[i]]
            i += 1
        out.append(str(value))
    return out


@lru_cache(maxsize=8_192)
def term_set(text: str) -> frozenset[str]:
    """The distinct content terms of ``text`` (cached: passages are scored against many claims)."""
    return frozenset(_content_terms(text))


def quoted_phrases(text: str) -> list[str]:
    """Phrases the text puts in double quotes (which a supporting passage must contain)."""
    return [match.group(1).strip().lower() for match in _QUOTED_RE.finditer(text)]


def code_phrases(text: str) -> list[str]:
    """The text of the code spans of ``text`` (`` `citecast ingest docs/` ``), lowercased and
    with runs of whitespace as one space: a command or setting in backticks is often the whole
    claim, so a supporting passage must contain it."""
    return [
        " ".join(match.group(2).split()).lower()
        for match in _CODE_SPAN_RE.finditer(text)
        if match.group(2).strip()
    ]


def negated(text: str) -> bool:
    """Whether ``text`` holds a negation ("not", "never", "cannot", "doesn't", "without", ...)."""
    return _NEGATION_RE.search(text) is not None


@lru_cache(maxsize=8_192)
def negation_scope(text: str) -> frozenset[str]:
    """The content terms each negation of ``text`` bears on: the two after it ("does not
    **support SAML**"), or the two before one that ends the clause ("pings nobody")."""
    found: set[str] = set()
    for match in _NEGATION_RE.finditer(text):
        # within the clause: "answers that cite nothing, and time to first token" negates
        # citing, not the time to first token
        after_text = _clause_after(text, match.end())
        before_text = _clause_before(text, match.start())
        after = [t for t in _content_terms(after_text) if not negated(t)][:2]
        before = [t for t in _content_terms(before_text) if not negated(t)][-2:]
        found.update(after or before)
    return frozenset(found)


@lru_cache(maxsize=8_192)
def negated_terms(text: str) -> frozenset[str]:
    """The content terms a negation of ``text`` bears on, within its clause: up to three after
    it and two before it ("links **expire** after one hour and **work** without **signing**
    in" gives work and sign, not expire). A passage sentence must negate a claim's
    :func:`negation_scope` here to back the negated claim; a "without" elsewhere in the
    sentence does not."""
    found: set[str] = set()
    for match in _NEGATION_RE.finditer(text):
        after = _clause_after(text, match.end())
        before = _clause_before(text, match.start())
        found.update([t for t in _content_terms(after) if not negated(t)][:3])
        found.update([t for t in _content_terms(before) if not negated(t)][-2:])
    return frozenset(found)


@lru_cache(maxsize=8_192)
def affirmed_terms(text: str) -> frozenset[str]:
    """The content terms ``text`` states rather than only negates, for a positive claim.

    A term a sentence holds only right after a negation, within its clause (its two words,
    and the two after an "or" or "nor" that follows them: "No **system database** or **search
    server** is needed"), is left out: a sentence saying there is none backs no claim that
    there is one ("citecast needs a PostgreSQL database server"). It stays out of the whole
    text, so the next sentence's "answers an hour" does not put back the "answer" of "mailing
    lists are never answered". A term the same sentence also states stays ("Restart after a
    change, but do not restart during an ingest" states "restart"). Only the words after a
    negation count, as in :func:`negation_scope`; the words before one ("allowed mentions that
    ping nobody") are often its subject, which the sentence does state.
    """
    terms = term_set(text)
    # sentence by sentence, each cached: a passage's windows (one sentence, two, all of them)
    # share their sentences
    denied = [denied_terms(sentence) for sentence in _sentences(text)]
    return terms.difference(*denied) if any(denied) else terms


@lru_cache(maxsize=8_192)
def denied_terms(sentence: str) -> frozenset[str]:
    """The terms ``sentence`` holds only right after a negation (see :func:`affirmed_terms`);
    empty for most sentences, which lets a scorer skip the check for a passage."""
    negated_here: Counter[str] = Counter()
    for match in _NEGATION_RE.finditer(sentence):
        after = _clause_after(sentence, match.end())
        negated_here.update(_negated_words(after))
    if not negated_here:
        return frozenset()
    held = Counter(_content_terms(sentence))
    return frozenset(t for t, n in negated_here.items() if held[t] <= n)


def _negated_words(after: str) -> list[str]:
    """The two content words after a negation (``after`` is the rest of its clause), and the
    two after each "or" right behind them: "no system database or search server"."""
    out: list[str] = []
    for piece in _OR_RE.split(after):
        found = [t for t in _content_terms(piece) if not negated(t)]
        out += found[:2]
        if len(found) > 2:
            break  # the "or" is not right behind the negated words
    return out


@lru_cache(maxsize=8_192)
def negated_clauses(text: str) -> tuple[str, ...]:
    """The clause around each negation of ``text`` (between clause ends, and after a "but"):
    "Restart after a change, but do **not restart during an ingest**" negates only its last
    clause. The commas of a list before it do not end it: "**Auto-replies, bounces, bulk mail
    and mailing lists are never answered**" is one clause, or "Auto-replies and bounces are
    answered" looked like a claim the sentence does not negate."""
    found: list[str] = []
    for match in _NEGATION_RE.finditer(text):
        after = _clause_after(text, match.end())
        start = _clause_start(text, match.start())
        before = _BUT_RE.split(text[start : match.start()])[-1]
        found.append(f"{before}{match.group(0)}{after}".strip())
    return tuple(found)


def _clause_start(text: str, end: int) -> int:
    """Where the clause holding ``text[end]`` starts: after the last clause end before it,
    moved back over each comma whose list item before it is short (up to three words)."""
    ends = [0, *_clause_starts(text, end)]
    start = ends.pop()
    while ends and text[start - 1] == "," and len(text[ends[-1] : start - 1].split()) <= 3:
        start = ends.pop()
    return start


def _clause_after(text: str, start: int) -> str:
    """``text`` from ``start`` up to the end of the clause holding ``text[start]``."""
    for match in _CLAUSE_END_RE.finditer(text, start):
        if stop_ends_sentence(text, match.start()):
            return text[start : match.start()]
    return text[start:]


def _clause_starts(text: str, end: int) -> list[int]:
    """Where each clause that starts before ``text[end]`` starts, after a clause end."""
    return [
        match.end()
        for match in _CLAUSE_END_RE.finditer(text, 0, end)
        if stop_ends_sentence(text, match.start())
    ]


def _clause_before(text: str, end: int) -> str:
    """``text`` from the start of the clause holding ``text[end]`` up to ``end``."""
    starts = _clause_starts(text, end)
    return text[starts[-1] if starts else 0 : end]


def _sentences(text: str) -> list[str]:
    """``text`` cut after each full stop that ends a sentence and the space after it."""
    out: list[str] = []
    start = 0
    for match in _SENTENCE_END_RE.finditer(text):
        if stop_ends_sentence(text, match.start() - 1):
            out.append(text[start : match.start()])
            start = match.end()
    out.append(text[start:])
    return out


@lru_cache(maxsize=8_192)
def frequencies(text: str) -> frozenset[str]:
    """How often the text says something happens: "every night" and "daily" both give "day"."""
    found: set[str] = set()
    if not may_hold(text, _FREQUENCY_HINTS):
        return frozenset()
    for match in _FREQUENCY_RE.finditer(text):
        word = (match.group(1) or match.group(2)).lower()
        found.add(_FREQUENCY_WORDS.get(word, word))
    return frozenset(found)


def clear_caches() -> None:
    """Forget cached terms (benchmarks use it to measure a cold answer honestly)."""
    for cached in (
        _cached_stem,
        _content_terms,
        term_set,
        numbers,
        frequencies,
        negation_scope,
        negated_terms,
        negated_clauses,
        affirmed_terms,
        denied_terms,
    ):
        cached.cache_clear()
