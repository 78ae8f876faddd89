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
  column's name ("19 seats") is in that column, and
- it negates nothing (a negated claim is left to prose scoring and its polarity checks).

A number the record does not hold, or one beside another column's name, caps the claim like a
failed hard check; anything else keeps the prose score, so prose scoring is not loosened.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from bot.models import Source
from bot.text_terms import negation_scope, number_values, term_set

RecordVerdict = Literal["match", "conflict"]


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
    # a column the claim names ("seats") must hold the numbers it holds at all
    named = {name for name in values if term_set(name) & claim_terms}
    for number in claimed:
        holders = {name for name, numbers in held.items() if number in numbers}
        if holders and named and holders.isdisjoint(named):
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


__all__ = ["RecordVerdict", "record_match"]
