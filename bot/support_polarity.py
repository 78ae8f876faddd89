"""Polarity for lexical support: does a passage state what a claim states, or its opposite?

Content-word coverage alone cannot tell "citecast supports SAML" from "citecast does not support
SAML": both hold the same words. These checks compare the claim with the passage sentences that
are about the same statement, in both directions:

- a **negated claim** ("does not support OIDC login") needs a passage sentence that negates one
  of the words its negation bears on (:func:`bot.text_terms.negation_scope`), and the words it
  is scored on must come from such sentences (or from sentences silent on the negated words): a
  "does not support SAML" beside "It supports OIDC login" lends "support" but not "OIDC". A
  passage sentence that holds every negated word without negating it and covers the claim
  better than any negating sentence ("It supports OIDC login") states the opposite plainly.
- a **positive claim** ("Links are stored on disk") is contradicted by a sentence of its best
  window whose own negation bears only on words of the claim ("Links are not stored on disk")
  and which covers most of the claim; a sentence that negates something else ("supports SAML,
  not SCIM" for "supports SAML") does not count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.text_terms import negated_clauses, negated_terms, negation_scope, term_set

# A sentence that covers at least this share of a claim's weight is about the claim's statement:
# below it, a negation (or its absence) in the sentence bears on something else.
STATES_CLAIM = 0.6


@dataclass(frozen=True)
class Statement:
    """A claim's weighted content terms and the terms its negation bears on (none if positive)."""

    weights: Mapping[str, float]
    scope: frozenset[str]
    total: float

    @classmethod
    def of(cls, claim: str, weight: Callable[[str], float]) -> Statement:
        """The statement of ``claim`` with its terms weighted by ``weight``."""
        weights = {term: weight(term) for term in term_set(claim)}
        return cls(weights, negation_scope(claim), sum(weights.values()))

    def coverage(self, present: Iterable[str]) -> float:
        """The share of the claim's weight that ``present`` holds (0 for a claim of no terms)."""
        if not self.total:
            return 0.0
        held = present if isinstance(present, frozenset | set) else set(present)
        # (a list, not a generator: this is the scorer's inner loop; the sum's order is the same)
        return sum([w for term, w in self.weights.items() if term in held]) / self.total

    def mentions(self, sentence: str) -> bool:
        """Whether ``sentence`` holds a word the claim's negation bears on."""
        return not self.scope.isdisjoint(term_set(sentence))

    def negates(self, sentence: str) -> bool:
        """Whether ``sentence`` negates a word the claim's negation bears on."""
        return not self.scope.isdisjoint(negated_terms(sentence))


def negated_window_value(statement: Statement, window: Sequence[str], capped: float) -> float:
    """A negated claim's coverage by ``window``: only words from sentences that negate the
    claim's negated words (or are silent on them) count; a window that mentions them and never
    negates them scores at most ``capped``."""
    agreeing = [s for s in window if statement.mentions(s) and statement.negates(s)]
    opposing = {s for s in window if statement.mentions(s) and not statement.negates(s)}
    if not agreeing and opposing:
        whole = statement.coverage(t for s in window for t in term_set(s))
        return min(whole, capped)
    return statement.coverage(t for s in window if s not in opposing for t in term_set(s))


def opposite_statement(statement: Statement, sentences: Sequence[str]) -> str | None:
    """The passage sentence that plainly states the opposite of a negated claim, or None.

    It holds every word the claim's negation bears on without negating any, covers most of the
    claim, and covers it better than every sentence that does negate them: "It supports OIDC
    login" for "citecast does not support OIDC login", even beside "citecast does not support
    SAML". A sentence without one of those words ("citecast supports SCIM" for "does not
    support SAML") is about something else.
    """
    if not statement.scope:
        return None
    best_negating = max(
        (statement.coverage(term_set(s)) for s in sentences if statement.negates(s)), default=0.0
    )
    found: str | None = None
    found_value = 0.0
    for sentence in sentences:
        if not statement.scope <= term_set(sentence) or statement.negates(sentence):
            continue
        value = statement.coverage(term_set(sentence))
        if value >= STATES_CLAIM and value > best_negating + 1e-9 and value > found_value:
            found, found_value = sentence, value
    return found


def negating_sentence(statement: Statement, window: Sequence[str]) -> str | None:
    """The sentence of ``window`` that negates what a positive claim states, or None.

    Its negation bears only on words of the claim ("Links are **not stored on disk**" for
    "Links are stored on disk"), the negated clause covers most of the claim, and no sentence
    of the window covers the claim better. "supports SAML, not SCIM" negates SCIM, which
    "supports SAML" does not claim.
    """
    if statement.scope:
        return None
    claim_terms = statement.weights.keys()
    values = {s: statement.coverage(term_set(s)) for s in window}
    top = max(values.values(), default=0.0)
    for sentence, value in values.items():
        if value < top - 1e-9:
            continue
        for clause in negated_clauses(sentence):
            # the negated clause itself must state the claim: "restart after a change, but do
            # not restart during an ingest" does not negate "restart after a change"
            scope = negation_scope(clause)
            covered = statement.coverage(term_set(clause))
            if scope and scope <= claim_terms and covered >= STATES_CLAIM:
                return sentence
    return None


def polarity_conflict(statement: Statement, sentences: Sequence[str]) -> bool:
    """Whether ``sentences`` (one premise) state the opposite of the claim, either direction."""
    if not statement.scope:
        return negating_sentence(statement, sentences) is not None
    if opposite_statement(statement, sentences) is not None:
        return True
    about = [s for s in sentences if statement.mentions(s)]
    return bool(about) and not any(statement.negates(s) for s in about)
