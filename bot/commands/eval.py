"""``citecast eval DATA.jsonl``: measure citation quality on a data set of cases."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.evaluation.dataset import EvalCase
    from bot.knowledge.records import RecordTables

HELP = "measure citation quality (ALCE-style recall and precision) on a JSONL data set"
DESCRIPTION = """\
Measure citation quality on a data set of cases, one JSON object per line. A case holds either a
recorded answer (the raw text a model wrote, with its sources) or a question for the configured
assistant, and optionally gold citations and hand-labelled support.

Metrics: citation recall (statements whose cited passages jointly support them), citation
precision (citations that are not irrelevant), claims found in the cited source, answers with a
citation, dropped markers by reason, gold citation precision and recall, for questions whose
gold citations are empty (the knowledge base cannot answer them) how many rightly cite nothing
(shown as "none (correct)" and left out of the all row's "cited"), the support scorer's
agreement with the labels, and with --runs N the spread between runs of the same question.

example line:
  {"id": "retries", "answer": "Failed sends are retried 5 times [1].",
   "sources": [{"id": "ops#3", "title": "Operations", "text": "We retry 5 times."}],
   "labels": [{"claim": "Failed sends are retried 5 times.", "source": "ops#3", "supported": true}]}

examples:
  citecast eval examples/eval/citations.jsonl
  citecast eval examples/eval/questions.jsonl   (after `citecast ingest examples/`)
  citecast eval cases.jsonl --runs 3 --out report.html
  citecast eval cases.jsonl --json --min-recall 95 --min-precision 90   (in CI)

--json prints the results as JSON instead of the table (shares as fractions from 0 to 1).
--min-recall, --min-precision, --min-in-source and --min-gold-recall take a percentage
(95 means 95.0%, as the table prints it) under the all row: a missed one exits with status 1
after the results, naming it (2 is a usage or data error, 130 Ctrl-C). Ctrl-C prints the
cases done so far, marked partial, and writes --out for them.
Lines that start with // or # are comments.
"""


SEE_HELP = " (see citecast eval --help)"
"""Ends every usage error, as argparse's own do (``bot.cli``)."""

_QUIET_CASES = 200
"""Up to this many recorded answers (about a second) are measured without a progress bar."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``citecast eval``."""
    # paths stay text until checked: Path("") is ".", and "" must be refused, not read as a folder
    parser.add_argument("data", help="JSONL file of cases")
    parser.add_argument("--runs", type=int, default=1, help="answers per question case (default 1)")
    parser.add_argument("--out", help="also write an HTML report here")
    parser.add_argument(
        "--threshold", type=float, help="support threshold (default: grounding.threshold)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the results as JSON instead of the table"
    )
    from bot.evaluation.gates import GATES

    for dest, (option, metric) in GATES.items():
        shown = metric.replace("claims_in_", "in ").replace("_", " ")
        parser.add_argument(
            option,
            dest=dest,
            type=float,
            metavar="PERCENT",
            help=f"exit 1 when the all row's {shown} is below PERCENT (0 to 100)",
        )


def check_gold_folders(
    index_path: str, data: Path, cases: Sequence[EvalCase], records: RecordTables | None
) -> None:
    """Refuse gold ids that start with another folder than the index's files (see
    :mod:`bot.commands.eval_gold`) before the per-id check blames a re-ingest."""
    from bot.commands.eval_gold import gold_folder_problem, indexed_folders
    from bot.errors import ValidationError
    from bot.knowledge import KnowledgeIndex

    index = KnowledgeIndex(index_path)
    try:
        problem = gold_folder_problem(
            data,
            cases,
            lambda source_id: index.source(source_id) is not None,
            indexed_folders(Path(index_path)),
            set(records.names) if records else set(),
        )
    finally:
        index.close()
    if problem is not None:
        raise ValidationError(problem)


def run(args: argparse.Namespace) -> int:
    """Run the cases (see :func:`_run`); an error names the ``--config`` given (see
    :mod:`bot.commands.config_named`)."""
    from bot.commands.config_named import naming_config
    from bot.commands.render_log import command_warnings

    # "citecast eval: dropping unsafe URL from source 'a'", as every line it prints
    with naming_config(args.config), command_warnings("eval"):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Load the cases, run them, print the table, write the report."""

    from rich.console import Console
    from rich.markup import escape

    from bot.commands.ask import check_answerable
    from bot.commands.output import progress_bar, stdout_console, write_stdout
    from bot.config_file import load_settings
    from bot.errors import ValidationError
    from bot.evaluation.dataset import load_cases
    from bot.evaluation.gates import GATE_FAILED, GATES, missed, parse_gates
    from bot.evaluation.json_results import results_json
    from bot.evaluation.report import check_writable, print_table, shown_id, summary, write_html
    from bot.evaluation.runner import AskFn, CaseResult, run_case
    from bot.knowledge.page_lookup import index_page_lookup
    from bot.models import Source
    from bot.path_lookup import path_state, resolved
    from bot.resolver import ResolvePolicy
    from bot.support import scorer_factory

    if not args.data.strip():  # an unset "$DATA"
        raise ValidationError("empty data path; name a JSONL file of cases")
    if args.out is not None and not args.out.strip():
        raise ValidationError("--out: empty path; name the HTML file to write")
    data = Path(args.data)
    out = None if args.out is None else Path(args.out)
    # named here, once; the data set's reader would quote Python's "[Errno 2] ...: 'path'"
    found = path_state(data)
    if not found.exists:
        raise ValidationError(f"{data}: no such file")
    if found.is_dir:
        raise ValidationError(f"{data}: is a folder, not a JSONL file of cases")
    if args.runs < 1:
        raise ValidationError(f"--runs must be at least 1, not {args.runs}{SEE_HELP}")
    if args.threshold is not None and not 0.0 <= args.threshold <= 1.0:
        raise ValidationError(
            f"--threshold must be between 0 and 1, not {args.threshold:g}{SEE_HELP}"
        )
    gates = parse_gates({dest: getattr(args, dest, None) for dest in GATES})
    settings = load_settings(args.config, opens_data=True)
    threshold = settings.grounding.threshold if args.threshold is None else args.threshold
    if out is not None:
        if resolved(out) == resolved(data):
            # the report would overwrite the data set it measured
            raise ValidationError(f"--out {out} is the data file itself")
        check_writable(out)
    cases = load_cases(data)
    scorer = scorer_factory(settings.grounding.backend)
    policy = ResolvePolicy.from_settings(settings.resolve)
    ask: AskFn | None = None
    lookup: Callable[[str], Source | None] | None = None
    # a recorded answer's PDF citations narrowed to their quotes' pages, as a live one is
    pages = index_page_lookup(settings.index.path)
    questions = sum(case.answer is None for case in cases)
    if questions:
        from bot.evaluation.live import live_assistant

        # as `citecast ask` refuses: without an index every question would measure "not found"
        records = check_answerable(settings, args.config, "eval")
        check_gold_folders(settings.index.path, data, cases, records)
        live = live_assistant(settings, records, data, cases)
        ask, lookup = live.ask, live.lookup

    # Question cases ask the assistant (a model may take seconds each), and a large file of
    # recorded answers takes minutes (about 5 ms a case): show how far it got.
    progress = progress_bar("evaluating", show=bool(questions) or len(cases) > _QUIET_CASES)

    results: list[CaseResult] = []  # outside run_all: Ctrl-C keeps the cases done

    async def run_all() -> None:
        task = progress.add_task("", total=len(cases))
        for case in cases:
            # the bar reads its description as markup: an id is shown, never interpreted,
            # and what a terminal would act on in it is shown as an escape
            progress.update(task, description=escape(shown_id(case.id)[-60:]))
            results.append(
                await run_case(
                    case,
                    runs=args.runs,
                    threshold=threshold,
                    scorer=scorer,
                    policy=policy,
                    ask=ask,
                    lookup=lookup,
                    pages=pages,
                )
            )
            progress.advance(task)
            # a recorded answer is worked out without ever awaiting: Ctrl-C cancels this task
            # at its next await, which would otherwise come only after the last case
            await asyncio.sleep(0)

    stopped = False
    try:
        with progress:
            asyncio.run(run_all())
    except KeyboardInterrupt:
        # an hour of a paid model's answers is not thrown away: the cases done are shown
        stopped = True
    stderr = Console(stderr=True)
    if stopped and not results:
        stderr.print(
            f"stopped at 0/{len(cases)} cases; nothing written",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        return 130
    failures = [] if stopped else missed(gates, summary(results))
    if args.json:
        write_stdout(
            results_json(
                results,
                threshold=threshold,
                runs=args.runs,
                total=len(cases),
                gates_missed=failures,
            )
        )
    else:
        console = stdout_console()
        with console.capture() as capture:  # printed by write_stdout: a closed pipe ends quietly
            print_table(results, console, args.runs, len(cases))
        write_stdout(capture.get())
    if out is not None:
        write_html(results, out, threshold, len(cases))
    if stopped:
        written = f"; partial report written to {out}" if out is not None else ""
        stderr.print(
            f"stopped at {len(results)}/{len(cases)} cases: the results above are of those"
            f" (partial){written}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        return 130
    if out is not None:
        stderr.print(f"report written to {out}", markup=False, highlight=False, soft_wrap=True)
    if failures:
        # one line, after the results, so a CI log shows both what was measured and why it failed
        stderr.print(
            "citecast eval: gate missed: " + "; ".join(failures),
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        return GATE_FAILED
    return 0
