"""Support for a claim cited to a record: the values it states, matched to the record's columns.

A record's text is its label and short ``column: value`` lines, so prose coverage scores a
sentence about it poorly: "The Team plan costs 19 dollars" shares only "Team" and "19" with
"citecast Team (CC-TEAM). Price (USD): 19. Seats: up to 50", and was marked weak (and dropped
under ``policy: drop``) although the record says exactly that. A record claim is judged on what
it states instead: it is supported when

- it names the record (a word of its label that not every evidence text holds: "Team", not
  "citecast"),
- it states at least one of the record's values (a number a column holds, or a column's whole
  value in words, other than the label's own words),
- every number it gives is one of the record's (or its label's), and a number it puts beside a
  column's name is in that column: "19 seats", "Seats: 19" and "a price of 19" each name the
  column of their own number only, so "costs $19 and has up to 50 seats" states two columns
  rightly, while "has 19 seats" for a price of 19 does not; money ("$19", "19 dollars", "USD
  19", "costs 19") belongs in a column named for money ("Price (USD)") when the record has
  one; a number with no column beside it must be in a column the claim names ("the seats of
  the Team plan number 19" is not), unless each column it names has its own number beside it
  ("Team: 19, up to 50 seats"), and
- it negates nothing (a negated claim is left to prose scoring and its polarity checks).

A number the record does not hold, or one beside another column's name, caps the claim like a
failed hard check; anything else keeps the prose score, so prose scoring is not loosened.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Literal

from bot.models import Source
from bot.text_terms import content_terms, negation_scope, number_spans, number_values, term_set

RecordVerdict = Literal["match", "conflict"]

# Words that make a number an amount of money, and make a column one that holds money.
_MONEY_TERMS = term_set("price prices cost costs fee fees usd dollar dollars eur euro euros gbp")
_CURRENCY_SIGNS = "$€£¥"
# A word before a number names its column only within the number's own clause.
_CLAUSE_BREAK_RE = re.compile(r"[,;.!?]\s")


def record_match(
    source: Source, claim: str, in_every_text: Callable[[str], bool]
) -> RecordVerdict | None:
    """``"match"`` when ``claim`` states values of record ``source`` (see the module
    docstring), ``"conflict"`` when a number it gives is not the record's or sits beside
    another column's name ("19 seats" for a price of 19), else None (score it as prose).
    ``in_every_text`` tells a word that names nothing in particular (it is in every evidence
    text of the turn)."""
    if source.kind != "record" or not source.columns or negation_scope(claim):
        return None
    claim_terms = term_set(claim)
    values = {name: value for name, value in source.columns.items() if value.strip()}
    held = {name: number_values(value) for name, value in values.items()}
    in_record: set[str] = set().union(*held.values())
    claimed = number_values(claim)
    if not claimed <= in_record | number_values(source.label or ""):
        return "conflict"
    if _beside_another_column(claim, claim_terms, held):
        return "conflict"
    label_terms = term_set(source.label or source.title or "")
    if all(in_every_text(term) for term in claim_terms & label_terms):
        return None  # the claim does not name this record
    stated_words = [
        value
        for value in values.values()
        if (terms := term_set(value) - label_terms) and terms <= claim_terms
    ]
    return "match" if claimed & in_record or stated_words else None


def _beside_another_column(
    claim: str, claim_terms: frozenset[str], held: Mapping[str, set[str]]
) -> bool:
    """Whether a number of ``claim`` sits beside the name of a column that does not hold it
    (``held``: each column's numbers). A number's column is named by the word after it ("19
    seats"), the word before it in its clause ("Seats: 19", "a price of 19"), or a currency
    sign or money word beside it (a column named for money); a number beside none is held
    to the columns the claim names, unless every column it names has a number beside it
    ("Team: 19, up to 50 seats")."""
    money = {name for name in held if term_set(name) & _MONEY_TERMS}
    used: set[str] = set()
    placed: set[str] = set()
    start = 0
    spans = number_spans(claim)
    for i, (begin, end, number) in enumerate(spans):
        value, _, unit = number.partition(" ")
        before = _CLAUSE_BREAK_RE.split(claim[start:begin])[-1]
        after = claim[end : spans[i + 1][0] if i + 1 < len(spans) else len(claim)]
        start = end
        beside = set(content_terms(before)[-1:]) | ({unit} if unit else set())
        columns = {name for name in held if term_set(name) & beside}
        if beside & _MONEY_TERMS or _currency_sign(before, after):
            columns |= money
        holders = {name for name, numbers in held.items() if value in numbers}
        if not columns or not holders:
            continue
        if holders.isdisjoint(columns):
            return True
        used |= columns
        placed.add(value)
    named = {name for name in held if term_set(name) & claim_terms}
    return any(
        named - used and holders.isdisjoint(named)
        for value in number_values(claim) - placed
        if (holders := {name for name, numbers in held.items() if value in numbers})
    )


def _currency_sign(before: str, after: str) -> bool:
    """Whether a currency sign stands right before a number ("$19") or after it ("19 $")."""
    signs = before.rstrip()[-1:] + after.lstrip()[:1]
    return any(sign in _CURRENCY_SIGNS for sign in signs)


__all__ = ["RecordVerdict", "record_match"]
