"""Words, numbers and quoted phrases of a text, for lexical support scoring.

Words, stop words and the light stemmer are the search index's own (``bot.knowledge.terms``),
so "installs", "installed" and "installing" meet "install" here exactly as they do in search.
Numbers keep their decimal point and are normalised ("1,000" == "1000"); units written after a
number are kept with it ("30 seconds" -> "30 second") so a claim's unit must match the passage's.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.knowledge.cjk import CJK_RUN, has_cjk
from bot.knowledge.terms import STOP_WORDS, stem, words

_NUMBER_RE = re.compile(
    r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s?(%|[a-zA-Z]{1,12}\b))?"
)
_FREQUENCY_RE = re.compile(
    r"\b(?:every|each|per|once an?|once per)\s+"
    r"(second|minute|hour|night|day|week|month|quarter|year)"
    r"|\b(hourly|nightly|daily|weekly|monthly|quarterly|yearly|annually)\b",
    re.IGNORECASE,
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
_QUOTED_RE = re.compile(r"[\"“”]([^\"“”]{3,200})[\"“”]")
# Words that turn a statement into its opposite ("does not support", "never", "cannot"):
# content-word coverage alone cannot tell "X supports Y" from "X does not support Y".
# Not negations: "No, ..." answering a question, "not only ... but also", "no matter how".
_NEGATION_RE = re.compile(
    r"\b(?:no(?!\s*[,.!;:]|\s+(?:matter|doubt)\b)|not(?!\s+(?:only|just)\b)"
    r"|never|none|nothing|nobody|neither|nor|cannot|without)\b|\wn['’]t\b",
    re.IGNORECASE,
)


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
    return tuple(
        _cached_stem(t) for t in words(text) if t not in STOP_WORDS and (len(t) > 1 or t.isdigit())
    )


@lru_cache(maxsize=8_192)
def term_set(text: str) -> frozenset[str]:
    """The distinct content terms of ``text`` (cached: passages are scored against many claims)."""
    return frozenset(_content_terms(text))


@lru_cache(maxsize=8_192)
def numbers(text: str) -> frozenset[str]:
    """Normalised numbers of ``text``, each with its unit when one follows it."""
    found: set[str] = set()
    if has_cjk(text):
        # A number written inside a CJK run ("約1400万人") has a word character right before
        # it, which the regex takes for part of a word: set CJK runs apart so it is seen.
        text = CJK_RUN.sub(lambda m: f" {m.group(0)} ", text)
    for match in _NUMBER_RE.finditer(text):
        whole = match.group(1).replace(",", "")
        value = whole if match.group(2) is None else f"{whole}.{match.group(2)}"
        unit = (match.group(3) or "").lower()
        if unit and (unit == "%" or unit not in STOP_WORDS):
            found.add(f"{value} {stem(unit)}".strip())
        else:
            found.add(value)
    return frozenset(found)


def number_values(text: str) -> set[str]:
    """Normalised numbers of ``text`` without their units."""
    return {item.split(" ", 1)[0] for item in numbers(text)}


def quoted_phrases(text: str) -> list[str]:
    """Phrases the text puts in double quotes (which a supporting passage must contain)."""
    return [match.group(1).strip().lower() for match in _QUOTED_RE.finditer(text)]


def negated(text: str) -> bool:
    """Whether ``text`` holds a negation ("not", "never", "cannot", "doesn't", "without", ...)."""
    return _NEGATION_RE.search(text) is not None


@lru_cache(maxsize=8_192)
def negation_scope(text: str) -> frozenset[str]:
    """The content terms each negation of ``text`` bears on: the two after it ("does not
    **support SAML**"), or the two before one that ends the clause ("pings nobody")."""
    found: set[str] = set()
    for match in _NEGATION_RE.finditer(text):
        after = [t for t in _content_terms(text[match.end() :]) if not negated(t)][:2]
        before = [t for t in _content_terms(text[: match.start()]) if not negated(t)][-2:]
        found.update(after or before)
    return frozenset(found)


@lru_cache(maxsize=8_192)
def frequencies(text: str) -> frozenset[str]:
    """How often the text says something happens: "every night" and "daily" both give "day"."""
    found: set[str] = set()
    for match in _FREQUENCY_RE.finditer(text):
        word = (match.group(1) or match.group(2)).lower()
        found.add(_FREQUENCY_WORDS.get(word, word))
    return frozenset(found)


def clear_caches() -> None:
    """Forget cached terms (benchmarks use it to measure a cold answer honestly)."""
    for cached in (_cached_stem, _content_terms, term_set, numbers, frequencies, negation_scope):
        cached.cache_clear()
