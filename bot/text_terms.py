"""Words, numbers and quoted phrases of a text, for lexical support scoring.

Kept deliberately simple and fast: lower-case word tokens, a short English stop-word list and a
light suffix stripper, so "installs", "installed" and "installing" meet "install". Numbers keep
their decimal point and are normalised ("1,000" == "1000"); units written after a number are
kept with it ("30 seconds" -> "30 second") so a claim's unit must match the passage's.
"""

from __future__ import annotations

import re

_WORD_RE = re.compile(r"[^\W_]+(?:[.'][^\W_]+)*", re.UNICODE)
_NUMBER_RE = re.compile(
    r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s?(%|[a-zA-Z]{1,12}\b))?"
)
_QUOTED_RE = re.compile(r"[\"“”]([^\"“”]{3,200})[\"“”]")

_STOP_WORDS_TEXT = """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in into
    is it its itself just me more most my myself no nor not now of off on once only or other our
    ours ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    may might must shall via per use used using one two"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
_SUFFIXES = ("ing", "edly", "ed", "es", "s", "ly")


def stem(word: str) -> str:
    """A light, deterministic suffix stripper (not a linguistic stemmer)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            # "running" -> "runn" -> "run", but "installs" stays "install".
            if suffix in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]
            break
    return word


def tokens(text: str) -> list[str]:
    """Lower-case word tokens of ``text``."""
    return [match.group(0).lower() for match in _WORD_RE.finditer(text)]


def content_terms(text: str) -> list[str]:
    """Stemmed tokens that carry meaning (no stop words, no one-letter tokens)."""
    return [stem(t) for t in tokens(text) if t not in STOP_WORDS and (len(t) > 1 or t.isdigit())]


def numbers(text: str) -> set[str]:
    """Normalised numbers of ``text``, each with its unit when one follows it."""
    found: set[str] = set()
    for match in _NUMBER_RE.finditer(text):
        whole = match.group(1).replace(",", "")
        value = whole if match.group(2) is None else f"{whole}.{match.group(2)}"
        unit = (match.group(3) or "").lower()
        if unit and (unit == "%" or unit not in STOP_WORDS):
            found.add(f"{value} {stem(unit)}".strip())
        else:
            found.add(value)
    return found


def number_values(text: str) -> set[str]:
    """Normalised numbers of ``text`` without their units."""
    return {item.split(" ", 1)[0] for item in numbers(text)}


def quoted_phrases(text: str) -> list[str]:
    """Phrases the text puts in double quotes (which a supporting passage must contain)."""
    return [match.group(1).strip().lower() for match in _QUOTED_RE.finditer(text)]
