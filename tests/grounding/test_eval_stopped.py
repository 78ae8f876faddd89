"""Ctrl-C in ``citecast eval``: the cases done are printed and written, marked partial.

Before, a long run (an hour of a paid model's answers) stopped with status 130 and nothing at
all. The interrupt is raised by a fake ``run_case`` at the third case, as Ctrl-C raises
KeyboardInterrupt in the running coroutine.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.evaluation import runner
from bot.evaluation.runner import CaseResult

CASE = {
    "answer": "Failed sends are retried 5 times [1].",
    "sources": [
        {"id": "ops#3", "title": "Operations", "text": "Failed sends are retried 5 times."}
    ],
}


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text(
        "".join(json.dumps({"id": f"c{n}", **CASE}) + "\n" for n in range(1, 6)),
        encoding="utf-8",
    )
    return path


def _interrupt_at(monkeypatch: pytest.MonkeyPatch, case_id: str) -> None:
    real = runner.run_case

    async def run_case(case: Any, **kwargs: Any) -> CaseResult:
        if case.id == case_id:
            raise KeyboardInterrupt
        return await real(case, **kwargs)

    monkeypatch.setattr(runner, "run_case", run_case)


def _eval_stopped_at(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    case_id: str,
    cases: Path,
    report: Path,
) -> tuple[int, str, str]:
    """``citecast eval CASES --out REPORT`` with Ctrl-C at ``case_id``: status, out, err."""
    _interrupt_at(monkeypatch, case_id)
    code = main(["eval", str(cases), "--out", str(report)])
    out, err = capsys.readouterr()
    return code, out, err


def test_ctrl_c_prints_the_cases_done_marked_partial(
    tmp_path: Path, cases: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.html"
    code, out, err = _eval_stopped_at(monkeypatch, capsys, "c3", cases, report)
    assert code == 130
    assert out.startswith("partial: stopped after 2 of 5 cases\n")
    assert "c2" in out and "c3" not in out
    assert err == (
        "stopped at 2/5 cases: the results above are of those (partial); partial report"
        f" written to {report}\n"
    )
    html = report.read_text(encoding="utf-8")
    assert "partial: stopped after 2 of 5 cases" in html


def test_ctrl_c_with_json_says_the_run_is_not_complete(
    cases: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _interrupt_at(monkeypatch, "c4")
    # a gate is not judged on part of the data set: the status is Ctrl-C's
    assert main(["eval", str(cases), "--json", "--min-recall", "100"]) == 130
    data = json.loads(capsys.readouterr().out)
    assert (data["complete"], data["cases_done"], data["cases_total"]) == (False, 3, 5)
    assert [case["id"] for case in data["cases"]] == ["c1", "c2", "c3"]


def test_ctrl_c_before_any_case_is_done_says_nothing_was_written(
    tmp_path: Path, cases: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.html"
    code, out, err = _eval_stopped_at(monkeypatch, capsys, "c1", cases, report)
    assert code == 130
    assert out == ""
    assert err == "stopped at 0/5 cases; nothing written\n"
    assert not report.exists()


def test_a_real_ctrl_c_stops_between_recorded_cases(
    cases: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # SIGINT as the terminal sends it, as the third case is measured: asyncio cancels the run
    # at its next await, which a run of recorded answers (never awaiting) reached only after
    # the last case. (Sent once the case is done: sent before it, whether that case finished
    # depended on whether measuring it awaited, which varied with what ran before the test.)
    real = runner.run_case

    async def run_case(case: Any, **kwargs: Any) -> CaseResult:
        result = await real(case, **kwargs)
        if case.id == "c3":
            signal.raise_signal(signal.SIGINT)
        return result

    monkeypatch.setattr(runner, "run_case", run_case)
    # as in a fresh `citecast` process: asyncio.run turns SIGINT into a cancel only when the
    # handler is Python's default (a test run earlier in the suite may have left another, and
    # then the signal interrupted the third case itself)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert main(["eval", str(cases)]) == 130
    finally:
        signal.signal(signal.SIGINT, previous)
    out, err = capsys.readouterr()
    assert out.startswith("partial: stopped after 3 of 5 cases\n")
    assert err == "stopped at 3/5 cases: the results above are of those (partial)\n"
