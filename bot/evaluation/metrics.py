"""Citation quality metrics for one answer, ALCE-style (Gao et al., 2023), plus scorer agreement.

- **citation recall**: the share of statements (factual sentences) whose cited passages, taken
  together, support them; a statement that cites nothing counts as unsupported.
- **citation precision**: the share of citations that are not irrelevant. A citation is relevant
  when its statement is supported jointly and either it supports the statement alone or the
  statement is no longer supported without it.
- **claims in source**: the share of (claim, citation) pairs whose cited passage alone supports
  the claim, a claim being the clause each marker closes (``bot.claims.claims``), as ``verify``
  scores it: a sentence citing one source per clause is judged clause by clause, not as a whole
  sentence that neither source holds.
- **cited**: whether the answer has at least one citation.
- **dropped**: markers the resolver removed, by reason.
- **abstained**: for a case whose gold citations are empty (the knowledge base cannot answer
  it), whether the answer cites nothing; undefined for every other case.

"Supports" means a support score at or above the grounding threshold, from the same scorer the
answer path uses, so these numbers describe what the product does.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.claims import claims, sentences
from bot.grounding import passage_of, source_support, uncited_claims
from bot.models import Answer, Source
from bot.support import SupportScorer, best_support

ScoreFn = Callable[[str, str], float]


@dataclass(frozen=True)
class StatementCheck:
    """One statement of an answer and how its citations fared."""

    text: str
    cited: tuple[int, ...]
    supported: bool
    relevant: tuple[int, ...]
    scores: dict[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class AnswerMetrics:
    """The metrics of one answer (see the module docstring)."""

    recall: float | None
    precision: float | None
    claims_in_source: float | None
    cited: bool
    dropped: dict[str, int]
    statements: tuple[StatementCheck, ...]
    gold_precision: float | None = None
    gold_recall: float | None = None
    abstained: bool | None = None


def answer_metrics(
    answer: Answer,
    scorer: SupportScorer,
    threshold: float,
    gold_citations: Sequence[str] | None = None,
) -> AnswerMetrics:
    """Measure one answer; ``scorer`` should be built over the turn's evidence."""
    sources = {c.n: c.source for c in answer.citations}

    def score(cited: Sequence[Source], claim: str) -> float:
        # one source as live grounding scores it; several together as one passage, or as the
        # best of them alone (a record's values are matched per record)
        if len(cited) == 1:
            return source_support(scorer, cited[0], claim).score
        joined = "\n".join(text for text in map(passage_of, cited) if text)
        together = best_support(scorer, joined, claim).score if joined else 0.0
        return max([together, *(source_support(scorer, s, claim).score for s in cited)])

    factual = set(uncited_claims(answer.text))
    answer_sentences = sentences(answer.text)
    checked_text = _as_grounding_reads(answer.text, [s.offset for s in answer_sentences])
    checks: list[StatementCheck] = []
    for sentence in answer_sentences:
        cited = tuple(dict.fromkeys(n for n in sentence.numbers if n in sources))
        if not cited and sentence.text not in factual:
            continue
        text = checked_text.get(sentence.offset, sentence.text)
        singles = {n: score([sources[n]], text) for n in cited}
        supported = bool(cited) and score([sources[n] for n in cited], text) >= threshold
        relevant: list[int] = []
        for n in cited:
            rest = [sources[m] for m in cited if m != n]
            alone = singles[n] >= threshold
            needed = not rest or score(rest, text) < threshold
            if supported and (alone or needed):
                relevant.append(n)
        checks.append(StatementCheck(text, cited, supported, tuple(relevant), singles))
    pairs = _claim_scores(answer.text, sources, scorer)
    gold_precision, gold_recall, abstained = _gold(answer, gold_citations)
    total_citations = sum(len(check.cited) for check in checks)
    return AnswerMetrics(
        recall=_share(sum(c.supported for c in checks), len(checks)),
        precision=_share(sum(len(c.relevant) for c in checks), total_citations),
        claims_in_source=_share(sum(s >= threshold for s in pairs), len(pairs)),
        cited=bool(answer.citations),
        dropped=dict(Counter(d.reason for d in answer.dropped)),
        statements=tuple(checks),
        gold_precision=gold_precision,
        gold_recall=gold_recall,
        abstained=abstained,
    )


def _claim_scores(text: str, sources: dict[int, Source], scorer: SupportScorer) -> list[float]:
    """The score of every (claim, citation) pair as ``verify`` gives it: each marker's own
    clause against its cited source alone.

    Scoring the whole sentence instead measured "Socket Mode needs no public URL [^2], and the
    outbox lives in SQLite [^1]" against the outbox passage as one claim it does not hold,
    while live grounding checks "the outbox lives in SQLite" there and finds it.
    """
    out: list[float] = []
    for claim in claims(text):
        for n in dict.fromkeys(claim.numbers):
            if n in sources:
                out.append(source_support(scorer, sources[n], claim.text).score)
    return out


def _as_grounding_reads(text: str, starts: Sequence[int]) -> dict[int, str]:
    """Each cited sentence's text as live grounding checks it, by the sentence's offset.

    ``sentences`` leaves code spans out, while ``verify`` keeps them in the claim
    (``bot.claims.claims``): measured without them, "Install with `pip install citecast-pro`"
    counted as in source against a passage giving `pip install citecast`, which live grounding
    caps. A sentence's claims (found by where their markers are) carry its text with code.
    """
    out: dict[int, str] = {}
    for claim in claims(text):
        index = bisect_right(starts, claim.offset) - 1
        if index >= 0 and claim.sentence:
            out.setdefault(starts[index], claim.sentence)
    return out


def _gold(
    answer: Answer, gold: Sequence[str] | None
) -> tuple[float | None, float | None, bool | None]:
    """Gold precision, gold recall and abstained (all ``None`` without gold citations)."""
    if gold is None:
        return None, None, None
    cited = {c.source.id for c in answer.citations}
    wanted = set(gold)
    hits = len(cited & wanted)
    # Empty gold says no source answers the question: without ``abstained`` a correct "not
    # found" defined no metric at all, and one answered anyway only lowered gold precision.
    abstained = not cited if not wanted else None
    return _share(hits, len(cited)), _share(hits, len(wanted)), abstained


@dataclass(frozen=True)
class LabelAgreement:
    """How the scorer's verdicts agree with hand labels (the scorer's own precision/recall)."""

    true_positive: int = 0
    false_positive: int = 0
    false_negative: int = 0
    true_negative: int = 0

    @property
    def precision(self) -> float | None:
        """Of the claims the scorer called supported, the share that are."""
        return _share(self.true_positive, self.true_positive + self.false_positive)

    @property
    def recall(self) -> float | None:
        """Of the supported claims, the share the scorer found."""
        return _share(self.true_positive, self.true_positive + self.false_negative)

    @property
    def accuracy(self) -> float | None:
        """The share of labels the scorer agrees with."""
        total = self.true_positive + self.false_positive + self.false_negative + self.true_negative
        return _share(self.true_positive + self.true_negative, total)

    def add(self, predicted: bool, actual: bool) -> LabelAgreement:
        """A copy with one more judgement counted."""
        return LabelAgreement(
            self.true_positive + (predicted and actual),
            self.false_positive + (predicted and not actual),
            self.false_negative + (not predicted and actual),
            self.true_negative + (not predicted and not actual),
        )


def label_agreement(
    labels: Sequence[tuple[str, Source | None, bool]],
    scorer: SupportScorer,
    threshold: float,
) -> tuple[LabelAgreement, list[float]]:
    """Score each ``(claim, source, supported)`` label; returns agreement and the raw scores."""
    agreement = LabelAgreement()
    scores: list[float] = []
    for claim, source, actual in labels:
        value = source_support(scorer, source, claim).score if source else 0.0
        scores.append(value)
        agreement = agreement.add(value >= threshold, actual)
    return agreement, scores


def _share(part: int, whole: int) -> float | None:
    return None if whole == 0 else part / whole
