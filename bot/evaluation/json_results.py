"""``citecast eval --json``: the table's numbers as one JSON object on stdout, for CI.

Every share is a fraction from 0 to 1 (the table's ``81.2%`` is ``0.8125``), ``null`` where the
table shows ``–`` (the metric is undefined for that case). The keys:

- ``cases``: one object per case, in file order: ``id``, ``recall``, ``precision``,
  ``claims_in_source``, ``cited`` (means over the case's runs), ``recall_spread`` (max minus min
  over runs; 0 for one run), ``gold_precision``, ``gold_recall``, ``abstained`` (for a case
  whose ``gold_citations`` are empty: the share of runs citing nothing, else ``null``),
  ``runs`` and ``dropped`` (dropped markers by reason, over its runs);
- ``all``: the all row: the same metrics as means over the cases that have a value, and
  ``counted``: for each, how many cases that is (``cited`` counts only answerable cases);
- ``dropped``: dropped markers by reason over every case; ``labels``: the support scorer vs
  the labels (``count``, ``precision``, ``recall``, ``accuracy``), ``null`` without labels;
- ``threshold``, ``runs``; ``complete`` (false when Ctrl-C stopped the run) with
  ``cases_done`` and ``cases_total``; ``gates_missed``: what each missed ``--min-…`` gate says.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bot.evaluation.report import dropped_totals, summary, value_counts
from bot.evaluation.runner import METRIC_NAMES, CaseResult, total_agreement

_EXTRA = ("gold_precision", "gold_recall", "abstained")


def _case(result: CaseResult) -> dict[str, Any]:
    dropped: Counter[str] = Counter()
    for run in result.runs:
        dropped.update(run.dropped)
    return {
        "id": result.case.id,
        **{metric: result.mean(metric) for metric in METRIC_NAMES},
        "recall_spread": result.spread("recall"),
        **{metric: result.mean(metric) for metric in _EXTRA},
        "runs": len(result.runs),
        "dropped": dict(sorted(dropped.items())),
    }


def results_json(
    results: Sequence[CaseResult],
    *,
    threshold: float,
    runs: int,
    total: int,
    gates_missed: Sequence[str] = (),
) -> str:
    """The results as indented JSON text ending in a line break (see the module docstring).

    ``total`` is the number of cases in the data set; fewer ``results`` mean a stopped run.
    """
    overall = summary(results)
    agreement = total_agreement(results)
    labels = None
    if agreement.accuracy is not None:
        labels = {
            "count": agreement.true_positive
            + agreement.false_positive
            + agreement.false_negative
            + agreement.true_negative,
            "precision": agreement.precision,
            "recall": agreement.recall,
            "accuracy": agreement.accuracy,
        }
    data = {
        "complete": len(results) == total,
        "cases_done": len(results),
        "cases_total": total,
        "threshold": threshold,
        "runs": runs,
        "cases": [_case(result) for result in results],
        "all": {
            **{metric: overall[metric] for metric in (*METRIC_NAMES, *_EXTRA)},
            "recall_spread": overall["recall_spread"],
            "counted": value_counts(results),
        },
        "dropped": dropped_totals(results),
        "labels": labels,
        "gates_missed": list(gates_missed),
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
