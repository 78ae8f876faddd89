"""Numbers of a text, in figures and in words, for the hard checks of lexical support.

Numbers keep their decimal point and are normalised ("1,000" == "1000"); units written after a
number are kept with it ("30 seconds" -> "30 second") so a claim's unit must match the passage's.
A count written in words ("two hours", "twenty-five seats") reads as its figure. Split out of
:mod:`bot.text_terms`, which re-exports :func:`numbers`, :func:`number_values` and
:func:`number_spans` and reads number words as figures among a text's terms.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.knowledge.cjk import CJK_RUN, has_cjk
from bot.knowledge.terms import STOP_WORDS, stem
from bot.text_shortcuts import may_hold

_NUMBER_RE = re.compile(
    r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s?(%|[a-zA-Z]{1,12}\b))?"
)
_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
WORD_VALUES = {word: n for n, word in enumerate(_ONES)} | {
    word: 10 * n for n, word in enumerate(_TENS, 2)
}
SCALES = {"hundred": 100, "thousand": 1000}
# A count written as a word ("two hours", "twenty-five seats", "one hundred files") and the
# word after it. "a"/"an" are never read as one ("a second attempt" is no time), and neither
# is a number word without a counted word after it ("one of", "the other one").
_WORD_FIGURE = (
    rf"\b(?:({'|'.join(_TENS)})(?:[-\s]({'|'.join(_ONES[1:10])}))?|({'|'.join(_ONES)}))"
    rf"(?:\s+({'|'.join(SCALES)}))?\b"
)
_WORD_NUMBER_RE = re.compile(rf"{_WORD_FIGURE}\s+([a-zA-Z]{{1,12}})\b", re.IGNORECASE)
# every match of _WORD_NUMBER_RE holds one of these
_NUMBER_WORDS = tuple(_ONES + _TENS)
# "one" is far more often a pronoun or an article ("one of the files", "in one place") than a
# count, and "zero" an adjective ("zero downtime"): they are read as numbers only before a unit
# of time, size or share.
_ONE_UNITS = frozenset(
    stem(word)
    for word in [
        "second",
        "seconds",
        "minute",
        "minutes",
        "hour",
        "hours",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "byte",
        "bytes",
        "kilobyte",
        "kilobytes",
        "megabyte",
        "megabytes",
        "gigabyte",
        "gigabytes",
        "terabyte",
        "terabytes",
        "kb",
        "mb",
        "gb",
        "tb",
        "percent",
    ]
)


@lru_cache(maxsize=8_192)
def numbers(text: str) -> frozenset[str]:
    """Normalised numbers of ``text``, each with its unit when one follows it."""
    found: set[str] = set()
    if has_cjk(text):
        # A number written inside a CJK run ("約1400万人") has a word character right before
        # it, which the regex takes for part of a word: set CJK runs apart so it is seen.
        text = CJK_RUN.sub(lambda m: f" {m.group(0)} ", text)
    found.update(_figure(match) for match in _NUMBER_RE.finditer(text))
    found.update(_word_numbers(text))
    return frozenset(found)


def number_spans(text: str) -> list[tuple[int, int, str]]:
    """Where the numbers of ``text`` are, in order: (start, end, the number as ``numbers``
    gives it), the end past its unit. A figure written inside a CJK run is not located."""
    spans = [(m.start(), m.end(), _figure(m)) for m in _NUMBER_RE.finditer(text)]
    for match in _WORD_NUMBER_RE.finditer(text):
        if number := _word_figure(match):
            spans.append((match.start(), match.end(), number))
    return sorted(spans)


def _figure(match: re.Match[str]) -> str:
    """A match of ``_NUMBER_RE`` normalised ("1,000 Files" -> "1000 file")."""
    whole = match.group(1).replace(",", "")
    value = whole if match.group(2) is None else f"{whole}.{match.group(2)}"
    unit = (match.group(3) or "").lower()
    if unit and (unit == "%" or unit not in STOP_WORDS):
        return f"{value} {stem(unit)}".strip()
    return value


def _word_value(tens: str | None, ones: str | None, single: str | None, scale: str | None) -> int:
    """The value of a number in words, from the groups of ``_WORD_FIGURE``."""
    value = WORD_VALUES[(tens or single or "").lower()]
    value += WORD_VALUES[ones.lower()] if ones else 0
    return value * SCALES[scale.lower()] if scale else value


def _word_numbers(text: str) -> set[str]:
    """Counts written as English words, as ``numbers`` writes figures ("two hours" ->
    "2 hour"), so "two hours" meets "2 hours" and differs from "five hours"."""
    if not may_hold(text, _NUMBER_WORDS):
        return set()
    return {number for m in _WORD_NUMBER_RE.finditer(text) if (number := _word_figure(m))}


def _word_figure(match: re.Match[str]) -> str | None:
    """A match of ``_WORD_NUMBER_RE`` as a figure and its unit, or None when it counts
    nothing (a stop word after it, or "one"/"zero" before no unit of time, size or share)."""
    tens, ones, single, scale, unit = match.groups()
    written = [word.lower() for word in (tens, ones, single, scale) if word]
    if not all(word in WORD_VALUES or word in SCALES for word in written):
        # the case-blind pattern also matched a letter that only folds to an ASCII one
        # ("ſix", "fıve"): no number word as written, and reading it raised a KeyError
        return None
    value = _word_value(tens, ones, single, scale)
    unit = unit.lower()
    if unit in STOP_WORDS or (value < 2 and not scale and stem(unit) not in _ONE_UNITS):
        return None
    return f"{value} {stem(unit)}"


def number_values(text: str) -> set[str]:
    """Normalised numbers of ``text`` without their units."""
    return {item.split(" ", 1)[0] for item in numbers(text)}


__all__ = ["number_spans", "number_values", "numbers"]
