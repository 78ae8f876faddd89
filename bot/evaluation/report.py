"""Show eval results: a terminal table (rich) and an HTML report with a per-case drill-down."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bot.commands.output import terminal_text
from bot.errors import ValidationError
from bot.evaluation.runner import METRIC_NAMES, CaseResult, total_agreement
from bot.page_labels import page_label
from bot.path_lookup import path_state

_HEADERS = {
    "recall": "recall",
    "precision": "precision",
    "claims_in_source": "in source",
    "cited": "cited",
}


def percent(value: float | None) -> str:
    """``0.8125`` -> ``81.2%``; ``None`` -> ``–``."""
    return "–" if value is None else f"{value * 100:.1f}%"


def shown_id(case_id: str) -> str:
    """A case id as the terminal shows it: every character a terminal would act on (an escape
    sequence that recolours, retitles or clears it; a bidi override) and every line break or
    tab written as a visible escape, so a data set from anywhere cannot act on the terminal or
    break a row of the table. The HTML report shows the id as written (escaped as HTML)."""
    return terminal_text(case_id, marks=True).replace("\n", "\\n").replace("\t", "\\t")


def _write_problem(path: Path, exc: OSError) -> str:
    if isinstance(exc, IsADirectoryError):
        return f"cannot write {path}: is a folder, not a file"
    return f"cannot write {path}: {exc.strerror or exc}"


def unanswerable(result: CaseResult) -> bool:
    """Whether the case's gold citations are empty: no source answers it, and its answer
    should cite nothing (its "cited" is then a failure, not a score to raise)."""
    return result.case.gold_citations == ()


def summary(results: Sequence[CaseResult]) -> dict[str, float | None]:
    """Each metric's mean over cases (cases where it is undefined are left out).

    "cited" is over the cases that can be answered: an unanswerable one that cites nothing is
    right, and counted apart (:func:`not_found_line`) rather than as an answer without sources.
    """
    out: dict[str, float | None] = {}
    for metric in (*METRIC_NAMES, "gold_precision", "gold_recall", "abstained"):
        counted = [r for r in results if not unanswerable(r)] if metric == "cited" else results
        values = [v for v in (r.mean(metric) for r in counted) if v is not None]
        out[metric] = statistics.fmean(values) if values else None
    spreads = [
        v for r in results for v in [r.spread("recall")] if v is not None and len(r.runs) > 1
    ]
    out["recall_spread"] = max(spreads) if spreads else None
    return out


def value_counts(results: Sequence[CaseResult]) -> dict[str, int]:
    """For each metric of the all row, how many cases it is the mean of: those that have a
    value (precision and in source need a citation, recall a statement; "cited" counts the
    cases that can be answered)."""
    out: dict[str, int] = {}
    for metric in (*METRIC_NAMES, "gold_precision", "gold_recall", "abstained"):
        counted = [r for r in results if not unanswerable(r)] if metric == "cited" else results
        out[metric] = sum(r.mean(metric) is not None for r in counted)
    return out


def counted_line(results: Sequence[CaseResult]) -> str | None:
    """ "all row: precision over 1 of 3 cases, in source over 1 of 3 (the others have no
    value)" when a metric of the all row is the mean of fewer cases than the data set has
    (precision and in source need a citation, recall a statement), else None: 100% from one
    case of ten must not read as the whole data set's. A line under the table, not in its
    cells, so the table keeps to 80 columns; the caption says whose share "cited" is."""
    counts = value_counts(results)
    short = [m for m in METRIC_NAMES if m != "cited" and counts[m] < len(results)]
    if not short:
        return None
    total = len(results)
    parts = [f"{_HEADERS[m]} over {counts[m]} of {total}" for m in short]
    parts[0] += " case" if total == 1 else " cases"
    return f"all row: {', '.join(parts)} (the others have no value)"


def spreads(results: Sequence[CaseResult]) -> dict[str, float | None]:
    """Each metric's largest spread between runs of one question (None without repeated runs)."""
    out: dict[str, float | None] = {}
    for metric in METRIC_NAMES:
        values = [
            v for r in results if len(r.runs) > 1 for v in [r.spread(metric)] if v is not None
        ]
        out[metric] = max(values) if values else None
    return out


def spread_line(results: Sequence[CaseResult]) -> str | None:
    """ "largest spread between runs: recall 20.0%, ..." (None when no case ran twice)."""
    found = spreads(results)
    if all(value is None for value in found.values()):
        return None
    parts = ", ".join(f"{_HEADERS[m]} {percent(v)}" for m, v in found.items())
    return f"largest spread between runs of a question: {parts}"


def dropped_totals(results: Sequence[CaseResult]) -> dict[str, int]:
    """Dropped-marker counts by reason over every run of every case."""
    totals: Counter[str] = Counter()
    for result in results:
        for run in result.runs:
            totals.update(run.dropped)
    return dict(sorted(totals.items()))


def cell(result: CaseResult, metric: str) -> str:
    """A case's value in the table: a percentage, but for an unanswerable case's "cited",
    whether it rightly cites nothing (``none (correct)``) or cites anyway (``100.0% (should
    be none)``), so that 0% does not read as the failure it would be elsewhere."""
    value = result.mean(metric)
    if metric != "cited" or not unanswerable(result) or value is None:
        return percent(value)
    return "none (correct)" if value == 0 else f"{percent(value)} (should be none)"


def not_found_line(results: Sequence[CaseResult]) -> str | None:
    """ "questions the knowledge base cannot answer: 3 of 3 cite nothing (correct)".

    Counts the cases with empty gold citations, for which citing nothing is the right outcome;
    those that cite anyway are counted after it ("; 1 cites a source (wrong)"). With ``--runs``
    a case counts as the mean of its runs. None when the data set has no such case.
    """
    values = [v for v in (r.mean("abstained") for r in results) if v is not None]
    if not values:
        return None
    right = sum(values)
    wrong = len(values) - right
    line = (
        f"questions the knowledge base cannot answer: {right:g} of {len(values)}"
        " cite nothing (correct)"
    )
    if wrong:
        line += f"; {wrong:g} {'cites' if wrong == 1 else 'cite'} a source (wrong)"
    return line


def partial_note(done: int, total: int) -> str:
    """ "partial: stopped after 517 of 1500 cases" for a run stopped part-way, else ""."""
    return f"partial: stopped after {done} of {total} cases" if done < total else ""


def print_table(
    results: Sequence[CaseResult], console: Console, runs: int, total: int | None = None
) -> None:
    """The per-case table, the totals and the scorer's agreement with the labels.

    ``total`` is the data set's number of cases: fewer ``results`` (a run stopped by Ctrl-C)
    are headed as partial."""
    note = partial_note(len(results), len(results) if total is None else total)
    table = Table(
        title="citecast eval",
        caption="recall/precision: ALCE citation recall and precision; in source: claims their"
        " cited passage supports; cited: answers with a citation (all: of the questions"
        " that have an answer)",
    )
    if note:  # a line of its own: in the title, the table's width would wrap it
        console.print(note, markup=False, highlight=False, soft_wrap=True)
    table.add_column("case")
    for metric in METRIC_NAMES:
        table.add_column(_HEADERS[metric], justify="right")
    if runs > 1:
        table.add_column("recall spread", justify="right")
    for result in results:
        # Text, not a str: rich reads "[...]" in a str as markup, so an id such as "[/b]" ended
        # the run with a traceback and "[red]q" showed as "q".
        row: list[Text | str] = [
            Text(shown_id(result.case.id)),
            *(cell(result, m) for m in METRIC_NAMES),
        ]
        if runs > 1:
            row.append(percent(result.spread("recall")))
        table.add_row(*row)
    overall = summary(results)
    total_row = ["[bold]all[/bold]", *(percent(overall[m]) for m in METRIC_NAMES)]
    if runs > 1:
        total_row.append(percent(overall["recall_spread"]))
    table.add_row(*total_row, end_section=True)
    console.print(table)
    counted = counted_line(results)
    if counted:
        console.print(counted, markup=False, soft_wrap=True)
    spread = spread_line(results) if runs > 1 else None
    if spread:
        console.print(spread, markup=False)
    dropped = dropped_totals(results)
    if dropped:
        console.print("dropped markers: " + ", ".join(f"{k} {v}" for k, v in dropped.items()))
    if overall["gold_recall"] is not None:
        console.print(
            f"gold citations: precision {percent(overall['gold_precision'])}, "
            f"recall {percent(overall['gold_recall'])}"
        )
    not_found = not_found_line(results)
    if not_found:
        console.print(not_found, markup=False, soft_wrap=True)  # one line, to grep for
    agreement = total_agreement(results)
    if agreement.accuracy is not None:
        console.print(
            f"support scorer vs labels: precision {percent(agreement.precision)}, "
            f"recall {percent(agreement.recall)}, accuracy {percent(agreement.accuracy)}"
        )


def write_html(
    results: Sequence[CaseResult], path: Path, threshold: float, total: int | None = None
) -> None:
    """A self-contained HTML report; every value is escaped by the template engine.

    ``total`` as for :func:`print_table`: a stopped run's report says it is partial."""
    env = Environment(
        loader=PackageLoader("bot.evaluation", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    env.globals["page_label"] = page_label
    template = env.get_template("report.html.j2")
    html = template.render(
        results=results,
        summary=summary(results),
        dropped=dropped_totals(results),
        spread=spread_line(results),
        not_found=not_found_line(results),
        agreement=total_agreement(results),
        metrics=METRIC_NAMES,
        headers=_HEADERS,
        percent=percent,
        cell=cell,
        counted=counted_line(results),
        partial=partial_note(len(results), len(results) if total is None else total),
        threshold=threshold,
    )
    try:
        path.write_text(html, encoding="utf-8")
    except OSError as exc:
        raise ValidationError(_write_problem(path, exc)) from None


def check_writable(path: Path) -> None:
    """Refuse a report path that cannot be written before any case runs (a run may be long).

    Only the plain mistakes are caught here (a folder, a missing folder); anything else, such
    as a read-only disk, still fails in :func:`write_html` with the same kind of message.
    """
    found = path_state(path)  # a folder that cannot be searched is one line, not a traceback
    if found.is_dir:
        raise ValidationError(f"cannot write {path}: is a folder, not a file")
    if not path_state(path.parent).is_dir:
        raise ValidationError(f"cannot write {path}: no folder {path.parent}")
    # Try it: a read-only folder or a file system that takes no files (/proc) would otherwise
    # fail only after every case has run. A file made for the test is removed again.
    existed = found.exists
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise ValidationError(_write_problem(path, exc)) from None
    if not existed:
        path.unlink(missing_ok=True)
