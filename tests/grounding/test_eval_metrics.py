"""citecast eval: the data format, ALCE-style metrics, the scorer on the shipped labels, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.errors import ValidationError
from bot.evaluation.dataset import load_cases
from bot.evaluation.metrics import answer_metrics
from bot.evaluation.runner import run_case, total_agreement
from bot.models import Answer, Citation, Source
from bot.resolver import ResolvePolicy
from bot.support import LexicalScorer

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "eval" / "citations.jsonl"

A = Source(id="a", text="The outbox lives in SQLite. Replies are retried up to 5 times.")
B = Source(id="b", text="Socket Mode needs no public URL.")


def _answer(text: str) -> Answer:
    return Answer(
        text=text,
        citations=(Citation(1, A, 1), Citation(2, B, 2)),
    )


def test_alce_recall_and_precision_on_a_small_answer() -> None:
    answer = _answer(
        "Replies are retried up to 5 times [^1][^2]. Socket Mode needs no public URL [^2]. "
        "The outbox is kept in a Redis cluster with three replicas."
    )
    metrics = answer_metrics(answer, LexicalScorer([A.text or "", B.text or ""]), 0.5)
    # Three statements: two supported, the uncited one counts against recall.
    assert metrics.recall == pytest.approx(2 / 3)
    # Three citations: [^2] in the first statement is irrelevant (it supports nothing there).
    assert metrics.precision == pytest.approx(2 / 3)
    assert metrics.claims_in_source == pytest.approx(2 / 3)
    assert metrics.cited is True
    first = metrics.statements[0]
    assert first.cited == (1, 2) and first.relevant == (1,)


def test_dataset_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text('{"id": "ok", "answer": "x"}\n{"id": "bad"}\n', encoding="utf-8")
    with pytest.raises(ValidationError, match=r"cases\.jsonl:2: a case needs a question"):
        load_cases(path)
    path.write_text('{"answer": "x", "sources": [{"id": "s", "page": "one"}]}\n', encoding="utf-8")
    with pytest.raises(ValidationError, match=r":1: sources\[0\]: page must be an integer"):
        load_cases(path)
    path.write_text("not json\n", encoding="utf-8")
    with pytest.raises(ValidationError, match=":1: not valid JSON"):
        load_cases(path)


async def test_scorer_separates_supported_from_unsupported_on_the_shipped_labels() -> None:
    cases = load_cases(SAMPLE)
    results = [
        await run_case(
            case,
            runs=1,
            threshold=0.35,
            scorer=LexicalScorer,
            policy=ResolvePolicy(),
            ask=None,
        )
        for case in cases
    ]
    agreement = total_agreement(results)
    total = (
        agreement.true_positive
        + agreement.false_positive
        + agreement.false_negative
        + agreement.true_negative
    )
    assert total == sum(len(case.labels) for case in cases) >= 40
    assert agreement.precision is not None and agreement.precision >= 0.9
    assert agreement.recall is not None and agreement.recall >= 0.85
    supported = [
        s
        for r in results
        for s, lab in zip(r.label_scores, r.case.labels, strict=True)
        if lab.supported
    ]
    unsupported = [
        s
        for r in results
        for s, lab in zip(r.label_scores, r.case.labels, strict=True)
        if not lab.supported
    ]
    assert min(supported) > sum(unsupported) / len(unsupported)


async def test_recorded_cases_go_through_resolve_and_report_dropped_markers() -> None:
    cases = {case.id: case for case in load_cases(SAMPLE)}
    result = await run_case(
        cases["audiences-private"],
        runs=1,
        threshold=0.35,
        scorer=LexicalScorer,
        policy=ResolvePolicy(),
        ask=None,
    )
    (run,) = result.runs
    assert run.dropped == {"forbidden": 2}
    (answer,) = result.answers
    # The model's own words stay, but nothing of the private source (its title, its text).
    assert "Internal salary bands" not in json.dumps(answer.to_json())
    assert "reviewed every March." not in json.dumps([c.to_json() for c in answer.citations])


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_cli_prints_the_table_and_writes_the_report(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    done = _cli("eval", str(SAMPLE), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "recall" in done.stdout and "install" in done.stdout
    assert "support scorer vs labels" in done.stdout
    html = out.read_text(encoding="utf-8")
    assert html.count("<details") == len(load_cases(SAMPLE))
    assert "<script" not in html


def test_cli_rejects_bad_data_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n", encoding="utf-8")
    done = _cli("eval", str(bad), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "bad.jsonl:1: not valid JSON" in done.stderr
