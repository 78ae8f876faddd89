"""``citecast eval`` in CI: ``--json`` results and ``--min-…`` gates with their own exit status.

Before, ``--json`` was an unrecognized argument and the exit status was 0 whatever the figures
(recall could fall from 100% to 3.8% and a build still passed).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

GOOD: dict[str, object] = {
    "id": "good",
    "answer": "Failed sends are retried 5 times [1].",
    "sources": [
        {"id": "ops#3", "title": "Operations", "text": "Failed sends are retried 5 times."}
    ],
    "gold_citations": ["ops#3"],
}
WRONG: dict[str, object] = {
    "id": "wrong",
    "answer": "Backups run every hour [1].",
    "sources": [{"id": "ops#4", "title": "Operations", "text": "The outbox lives in SQLite."}],
}
UNCITED: dict[str, object] = {"id": "uncited", "answer": "Backups run every night."}


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def _cases(tmp_path: Path, *cases: dict[str, object]) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    return path


def test_json_gives_each_case_and_the_all_row_as_the_table_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _cases(tmp_path, GOOD, WRONG, UNCITED)
    assert main(["eval", str(cases)]) == 0
    table = capsys.readouterr().out
    assert main(["eval", str(cases), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [case["id"] for case in data["cases"]] == ["good", "wrong", "uncited"]
    good, wrong, uncited = data["cases"]
    assert (good["recall"], good["precision"], good["cited"]) == (1.0, 1.0, 1.0)
    assert (wrong["recall"], wrong["precision"]) == (0.0, 0.0)
    assert (uncited["recall"], uncited["precision"], uncited["cited"]) == (0.0, None, 0.0)
    assert (good["gold_recall"], wrong["gold_recall"]) == (1.0, None)
    everything = data["all"]
    assert everything["recall"] == pytest.approx(1 / 3)
    assert everything["precision"] == 0.5
    assert everything["counted"]["recall"] == 3
    assert everything["counted"]["precision"] == 2  # the uncited answer has no citation
    # the same figures as the table's all row
    all_row = next(line for line in table.splitlines() if " all " in line)
    assert "33.3%" in all_row and "50.0%" in all_row
    assert (data["complete"], data["cases_done"], data["cases_total"]) == (True, 3, 3)
    assert data["gates_missed"] == []


def test_a_missed_gate_exits_1_after_the_results_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _cases(tmp_path, GOOD, WRONG, UNCITED)
    status = main(["eval", str(cases), "--min-recall", "90", "--min-precision", "50"])
    out, err = capsys.readouterr()
    assert status == 1
    assert "all" in out  # the results are printed first
    assert err == "citecast eval: gate missed: recall 33.3% is below --min-recall 90\n"


def test_a_missed_gate_is_in_the_json_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _cases(tmp_path, GOOD, WRONG)
    assert main(["eval", str(cases), "--json", "--min-precision", "75"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["gates_missed"] == ["precision 50.0% is below --min-precision 75"]


def test_gates_that_are_met_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = _cases(tmp_path, GOOD)
    argv = ["eval", str(cases), "--min-recall", "100", "--min-precision", "100"]
    assert main([*argv, "--min-in-source", "100", "--min-gold-recall", "100"]) == 0
    assert capsys.readouterr().err == ""


def test_a_gate_on_a_metric_without_a_value_is_missed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # no case has gold citations: a gate that cannot be checked must not pass a build
    cases = _cases(tmp_path, WRONG)
    assert main(["eval", str(cases), "--min-gold-recall", "90"]) == 1
    assert capsys.readouterr().err == (
        "citecast eval: gate missed: gold recall has no value in this run (--min-gold-recall 90)\n"
    )


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("0.95", "--min-recall takes a percentage: 0.95 would be 0.95%; write 95 for 95%"),
        ("101", "--min-recall takes a percentage from 0 to 100, not 101"),
        ("-1", "--min-recall takes a percentage from 0 to 100, not -1"),
        ("nan", "--min-recall takes a percentage from 0 to 100, not nan"),
    ],
)
def test_a_gate_that_is_not_a_percentage_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, reason: str
) -> None:
    cases = _cases(tmp_path, GOOD)
    assert main(["eval", str(cases), "--min-recall", value]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"citecast eval: {reason} (see citecast eval --help)\n"


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--threshold", "2"], "--threshold must be between 0 and 1, not 2"),
        (["--runs", "0"], "--runs must be at least 1, not 0"),
    ],
)
def test_every_usage_error_says_where_to_read_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], reason: str
) -> None:
    cases = _cases(tmp_path, GOOD)
    assert main(["eval", str(cases), *argv]) == 2
    assert capsys.readouterr().err == f"citecast eval: {reason} (see citecast eval --help)\n"
