"""Support scoring: how well a passage backs a claim, offline on a CPU.

The default :class:`LexicalScorer` needs no model download. It weighs the claim's content words
by their rarity in the turn's evidence (BM25-style inverse document frequency), measures how much
of that weight the best window of one or two passage sentences covers, and applies hard checks:
every number in the claim must appear in the passage (with a matching unit where both give one),
and every quoted phrase must appear verbatim.

A team can plug in an NLI or embedding model instead: anything with
``entails(premise, hypothesis) -> float`` in 0..1 is a :class:`SupportScorer`, and
``grounding.backend: "package.module:factory"`` in config names a factory that takes the turn's
evidence texts and returns one.
"""

from __future__ import annotations

import importlib
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.errors import ConfigError
from bot.text_terms import content_terms, number_values, numbers, quoted_phrases

_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+|\n+")
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
    "day": "day",
    "%": "percent",
    "percent": "percent",
}
# A claim that names a number or quote the passage lacks can score at most this much.
HARD_CHECK_CAP = 0.15
_LONGER_QUOTE_MARGIN = 0.05


class SupportScorer(Protocol):
    """Scores how strongly ``premise`` supports ``hypothesis`` (0 = not at all, 1 = fully)."""

    def entails(self, premise: str, hypothesis: str) -> float:
        """The support score in 0..1."""
        ...


ScorerFactory = Callable[[Sequence[str]], SupportScorer]


@dataclass(frozen=True)
class Support:
    """A claim's best support in one passage: the score and the sentence(s) that give it."""

    score: float
    quote: str | None


class LexicalScorer:
    """Rarity-weighted content-word coverage plus hard number and quote checks."""

    def __init__(self, evidence: Iterable[str] = ()) -> None:
        documents = [set(content_terms(text)) for text in evidence]
        self._count = len(documents)
        self._df: Counter[str] = Counter()
        for terms in documents:
            self._df.update(terms)

    def weight(self, term: str) -> float:
        """BM25's inverse document frequency of ``term`` over the turn's evidence (>= 0.2)."""
        df = self._df.get(term, 0)
        idf = math.log(1.0 + (self._count - df + 0.5) / (df + 0.5))
        return max(idf, 0.2)

    def entails(self, premise: str, hypothesis: str) -> float:
        """Coverage of the hypothesis' weighted content words by the premise, hard-checked."""
        claim_terms = set(content_terms(hypothesis))
        if not claim_terms:
            return 0.0
        premise_terms = set(content_terms(premise))
        total = sum(self.weight(t) for t in claim_terms)
        covered = sum(self.weight(t) for t in claim_terms & premise_terms)
        score = covered / total
        if not hard_checks_pass(premise, hypothesis):
            score = min(score, HARD_CHECK_CAP)
        return round(score, 4)


def hard_checks_pass(premise: str, hypothesis: str) -> bool:
    """Numbers (and their units) and quoted phrases of the claim appear in the passage."""
    if not number_values(hypothesis) <= number_values(premise):
        return False
    premise_units = _units_by_value(premise)
    for value, units in _units_by_value(hypothesis).items():
        if premise_units.get(value) and units.isdisjoint(premise_units[value]):
            return False
    lowered = premise.lower()
    return all(phrase in lowered for phrase in quoted_phrases(hypothesis))


def _units_by_value(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for item in numbers(text):
        value, _, unit = item.partition(" ")
        known = _UNIT_ALIASES.get(unit)
        if known:
            out.setdefault(value, set()).add(known)
    return {value: units for value, units in out.items() if units}


def passage_sentences(text: str) -> list[str]:
    """The passage split into sentences (and lines), empty ones removed."""
    return [part.strip() for part in _SENTENCE_SPLIT_RE.split(text) if part and part.strip()]


def best_support(scorer: SupportScorer, passage: str, claim: str) -> Support:
    """The best window of one or two consecutive passage sentences for ``claim``.

    The whole passage also counts (slightly discounted, since its quote would be too long to
    point at), so evidence spread over a paragraph is not missed; its quote stays the best
    single sentence.
    """
    parts = passage_sentences(passage)
    if not parts or not claim.strip():
        return Support(0.0, None)
    best = Support(0.0, None)
    for sentence in parts:
        score = scorer.entails(sentence, claim)
        if score > best.score + 1e-9:
            best = Support(score, sentence)
    # A pair of sentences, or the whole passage, must do clearly better to win: a shorter
    # quote points more precisely at the evidence.
    for first, second in itertools.pairwise(parts):
        window = f"{first} {second}"
        score = scorer.entails(window, claim)
        if score > best.score + _LONGER_QUOTE_MARGIN:
            best = Support(score, window)
    whole = scorer.entails(passage, claim) * 0.9
    if whole > best.score + _LONGER_QUOTE_MARGIN:
        best = Support(round(whole, 4), best.quote or parts[0])
    return best


def scorer_factory(backend: str) -> ScorerFactory:
    """The factory for ``grounding.backend``: ``lexical`` or ``package.module:callable``."""
    if backend == "lexical":
        return LexicalScorer
    module_name, _, attribute = backend.partition(":")
    if not module_name or not attribute:
        raise ConfigError(
            f"grounding.backend: expected 'lexical' or 'module:factory', got {backend!r}"
        )
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"grounding.backend: cannot load {backend!r}: {exc}") from None
    if not callable(factory):
        raise ConfigError(f"grounding.backend: {backend!r} is not callable")
    return factory  # type: ignore[no-any-return]
