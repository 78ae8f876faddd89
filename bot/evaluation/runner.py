"""Run eval cases: resolve recorded answers, or ask the assistant ``runs`` times, then measure.

A recorded case goes through exactly the production path (registry in order, ``resolve``,
``verify`` with the annotate policy, then the Assistant's narrowing of a PDF citation to the
pages its quotes are on, :func:`bot.knowledge.page_spans.narrow_answer`, given the index's page
maps), so its metrics and the pages it reports describe what users would be shown. A
question case asks the configured assistant; with ``runs`` > 1 the spread between runs shows
how stable the answers' citations are.
"""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.evaluation.dataset import EvalCase
from bot.evaluation.metrics import AnswerMetrics, LabelAgreement, answer_metrics, label_agreement
from bot.grounding import GroundingPolicy, passage_of, verify
from bot.knowledge.page_spans import PageLookup, narrow_answer
from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve
from bot.support import ScorerFactory

AskFn = Callable[[str, frozenset[str]], Awaitable[tuple[Answer, SourceRegistry]]]

METRIC_NAMES = ("recall", "precision", "claims_in_source", "cited")


@dataclass(frozen=True)
class CaseResult:
    """Every run of one case: the answers, their metrics and the label agreement."""

    case: EvalCase
    answers: tuple[Answer, ...]
    runs: tuple[AnswerMetrics, ...]
    agreement: LabelAgreement
    label_scores: tuple[float, ...]

    def mean(self, metric: str) -> float | None:
        """The metric's mean over runs (``None`` when no run defines it)."""
        values = [v for v in (_value(run, metric) for run in self.runs) if v is not None]
        return statistics.fmean(values) if values else None

    def spread(self, metric: str) -> float | None:
        """Max minus min of the metric over runs (0 for a single run)."""
        values = [v for v in (_value(run, metric) for run in self.runs) if v is not None]
        return max(values) - min(values) if values else None


def _value(run: AnswerMetrics, metric: str) -> float | None:
    value = getattr(run, metric)
    return float(value) if isinstance(value, bool | int | float) else None


def resolve_recorded(
    case: EvalCase, policy: ResolvePolicy, scorer: ScorerFactory, pages: PageLookup | None = None
) -> tuple[Answer, SourceRegistry]:
    """The production path for a recorded answer: register, resolve, verify (annotate), then
    narrow its PDF citations to their quotes' pages with ``pages`` (the index's page maps;
    without them the passages' pages stay, as for a source the index does not hold)."""
    assert case.answer is not None
    registry = SourceRegistry(case.audience)
    registry.register_all(case.sources)
    answer = resolve(case.answer, registry, policy)
    answer = verify(answer, registry, GroundingPolicy(mode="annotate"), scorer)
    if pages is not None:
        answer = narrow_answer(answer, pages)  # after grounding, which may choose the quote
    return answer, registry


async def run_case(
    case: EvalCase,
    *,
    runs: int,
    threshold: float,
    scorer: ScorerFactory,
    policy: ResolvePolicy,
    ask: AskFn | None,
    lookup: Callable[[str], Source | None] | None = None,
    pages: PageLookup | None = None,
) -> CaseResult:
    """Produce and measure the case's answer(s).

    ``pages`` narrows a recorded answer's citations as the Assistant narrows a question's
    (:func:`resolve_recorded`; ``bot.knowledge.page_lookup.index_page_lookup``).

    ``lookup`` finds a label's source by id when neither the case nor the first run's evidence
    holds it (a question case whose answer did not retrieve it): a hand label judges a claim
    against its source, so it is scored on that source's text, not counted as a miss.
    """
    produced: list[tuple[Answer, SourceRegistry]] = []
    if case.answer is not None:
        produced.append(resolve_recorded(case, policy, scorer, pages))
    elif ask is not None and case.question is not None:
        for _ in range(max(1, runs)):
            produced.append(await ask(case.question, frozenset(case.audience)))
    answers: list[Answer] = []
    measured: list[AnswerMetrics] = []
    for answer, registry in produced:
        evidence = [passage_of(s) for s in registry.evidence()]
        measured.append(
            answer_metrics(
                answer, scorer([e for e in evidence if e]), threshold, case.gold_citations
            )
        )
        answers.append(answer)
    by_id: dict[str, Source] = {s.id: s for s in case.sources}
    for _, registry in produced[:1]:
        by_id.update({s.id: s for s in registry.evidence()})
    for label in case.labels:
        if label.source not in by_id and lookup is not None:
            found = lookup(label.source)
            if found is not None:
                by_id[label.source] = found
    labels = [(label.claim, by_id.get(label.source), label.supported) for label in case.labels]
    evidence_texts = [passage_of(s) for s in by_id.values()]
    agreement, scores = label_agreement(labels, scorer([e for e in evidence_texts if e]), threshold)
    return CaseResult(case, tuple(answers), tuple(measured), agreement, tuple(scores))


def total_agreement(results: Sequence[CaseResult]) -> LabelAgreement:
    """The scorer's agreement with every label of the data set."""
    total = LabelAgreement()
    for result in results:
        a = result.agreement
        total = LabelAgreement(
            total.true_positive + a.true_positive,
            total.false_positive + a.false_positive,
            total.false_negative + a.false_negative,
            total.true_negative + a.true_negative,
        )
    return total
