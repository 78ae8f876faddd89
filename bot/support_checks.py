"""The hard checks of lexical support: numbers, units, counts, frequencies and phrases.

A claim that gives a number (with its unit), a repetition count, a frequency, a quoted phrase or
a code span the passage does not give cannot be backed by it, whatever words they share
(:func:`hard_checks_pass`). What the checks read from a text is read once (:class:`PremiseFacts`,
:class:`ClaimFacts`): the lexical scorer keeps a passage's facts for the turn and checks each
claim against them, instead of reading the passage again for every claim cited to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.text_counts import counts, counts_match
from bot.text_terms import code_phrases, frequencies, number_values, numbers, quoted_phrases

# Keys are stemmed units as ``text_terms.numbers`` gives them ("bytes" -> "byt", "weeks" ->
# "week"): a unit missing here is not compared at all, so "30 weeks" passed for "30 days".
_UNIT_ALIASES = {
    "s": "second",
    "sec": "second",
    "secs": "second",
    "second": "second",
    "ms": "millisecond",
    "millisecond": "millisecond",
    "min": "minute",
    "minut": "minute",
    "h": "hour",
    "hr": "hour",
    "hour": "hour",
    "hrs": "hour",
    "day": "day",
    "d": "day",
    "week": "week",
    "wk": "week",
    "wks": "week",
    "month": "month",
    "year": "year",
    "yr": "year",
    "yrs": "year",
    "%": "percent",
    "percent": "percent",
    # Sizes: "10 GB" cited to "10 MB" is a different limit. MiB and MB are the same claim here
    # (answers round one to the other); lowercase, since "Mb" is written for "MB" far more often
    # than it means megabits.
    "byte": "byte",
    "byt": "byte",
    "kb": "kilobyte",
    "kib": "kilobyte",
    "kilobyte": "kilobyte",
    "kilobyt": "kilobyte",
    "mb": "megabyte",
    "mib": "megabyte",
    "megabyte": "megabyte",
    "megabyt": "megabyte",
    "gb": "gigabyte",
    "gib": "gigabyte",
    "gigabyte": "gigabyte",
    "gigabyt": "gigabyte",
    "tb": "terabyte",
    "tib": "terabyte",
    "terabyte": "terabyte",
    "terabyt": "terabyte",
}


@dataclass(frozen=True)
class PremiseFacts:
    """What the hard checks read from a passage."""

    values: frozenset[str]
    units: dict[str, set[str]]
    counts: frozenset[tuple[str, int]]
    frequencies: frozenset[str]
    lowered: str

    @classmethod
    def of(cls, premise: str) -> PremiseFacts:
        """The facts of ``premise``."""
        return cls(
            frozenset(number_values(premise)),
            _units_by_value(premise),
            counts(premise),
            frequencies(premise),
            premise.lower(),
        )


@dataclass(frozen=True)
class ClaimFacts:
    """What the hard checks read from a claim."""

    values: frozenset[str]
    units: dict[str, set[str]]
    counts: frozenset[tuple[str, int]]
    frequencies: frozenset[str]
    quoted: tuple[str, ...]
    code: tuple[str, ...]

    @classmethod
    def of(cls, claim: str) -> ClaimFacts:
        """The facts of ``claim``."""
        return cls(
            frozenset(number_values(claim)),
            _units_by_value(claim),
            counts(claim),
            frequencies(claim),
            tuple(quoted_phrases(claim)),
            tuple(code_phrases(claim)),
        )


def hard_checks_pass(premise: str, hypothesis: str) -> bool:
    """Numbers (with units), repetition counts, frequencies and quoted phrases of the claim
    agree with the passage."""
    return facts_agree(PremiseFacts.of(premise), ClaimFacts.of(hypothesis))


def facts_agree(premise: PremiseFacts, claim: ClaimFacts) -> bool:
    """:func:`hard_checks_pass` on facts read before (a passage's once per turn)."""
    if not claim.values <= premise.values:
        return False
    for value, units in claim.units.items():
        if premise.units.get(value) and units.isdisjoint(premise.units[value]):
            return False
    if not counts_match(premise.counts, claim.counts):
        return False  # "answered twice" against "answered once"
    if (
        claim.frequencies
        and premise.frequencies
        and claim.frequencies.isdisjoint(premise.frequencies)
    ):
        return False
    if not all(phrase in premise.lowered for phrase in claim.quoted):
        return False
    if not claim.code:
        return True
    # a code span must appear as written (a passage wraps its lines, so whitespace is loose)
    spaced = " ".join(premise.lowered.split())
    return all(code in spaced for code in claim.code)


def _units_by_value(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for item in numbers(text):
        value, _, unit = item.partition(" ")
        known = _UNIT_ALIASES.get(unit)
        if known:
            out.setdefault(value, set()).add(known)
    return {value: units for value, units in out.items() if units}


__all__ = ["ClaimFacts", "PremiseFacts", "facts_agree", "hard_checks_pass"]
