"""``citecast eval``: empty gold citations mark a question the knowledge base cannot answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.evaluation.metrics import answer_metrics
from bot.models import Answer, Citation, Source
from bot.support import LexicalScorer

A = Source(id="a", text="Replies are retried up to 5 times.")
NOT_FOUND = "I could not find anything about that in the knowledge base."
ANSWERED = "Replies are retried up to 5 times [^1]."


def _metrics(answer: Answer, gold: tuple[str, ...] | None) -> tuple[object, ...]:
    m = answer_metrics(answer, LexicalScorer([A.text or ""]), 0.5, gold)
    return m.abstained, m.gold_precision, m.gold_recall


def test_a_not_found_answer_to_an_unanswerable_question_abstained() -> None:
    # before, such a case defined no metric at all: a correct "not found" counted for nothing
    assert _metrics(Answer(text=NOT_FOUND), ()) == (True, None, None)


def test_an_unanswerable_question_answered_anyway_did_not_abstain() -> None:
    answer = Answer(text=ANSWERED, citations=(Citation(1, A, 1),))
    assert _metrics(answer, ()) == (False, 0.0, None)


@pytest.mark.parametrize("gold", [None, ("a",)])
def test_abstained_is_undefined_unless_gold_is_empty(gold: tuple[str, ...] | None) -> None:
    assert _metrics(Answer(text=NOT_FOUND), gold)[0] is None


@pytest.fixture
def cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two recorded answers to unanswerable questions (one cites anyway) and one answerable."""
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    source = {"id": "a", "title": "Retries", "text": A.text}
    lines = [
        {"id": "refunds", "answer": NOT_FOUND, "gold_citations": []},
        {"id": "sso", "answer": ANSWERED, "sources": [source], "gold_citations": []},
        {"id": "retries", "answer": ANSWERED, "sources": [source], "gold_citations": ["a"]},
    ]
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


LINE = (
    "questions the knowledge base cannot answer: 1 of 2 cite nothing (correct); "
    "1 cites a source (wrong)"
)


def test_the_table_and_the_report_count_the_questions_that_cite_nothing(
    cases: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.html"
    assert main(["eval", str(cases), "--out", str(report)]) == 0
    out = capsys.readouterr().out
    assert LINE + "\n" in out
    # the answered one lowers gold precision; the answerable one alone sets gold recall
    assert "gold citations: precision 50.0%, recall 100.0%" in out
    assert f"<p>Q{LINE[1:]}.</p>" in report.read_text(encoding="utf-8")


def test_no_line_without_an_unanswerable_question(
    cases: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = cases.read_text(encoding="utf-8").splitlines()
    cases.write_text(lines[2] + "\n", encoding="utf-8")
    assert main(["eval", str(cases)]) == 0
    assert "cannot answer" not in capsys.readouterr().out


def test_citing_nothing_shows_as_correct_and_the_all_row_counts_only_answerable_cases(
    cases: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "cited 0.0%" read as a failure where citing nothing is the right outcome, and the all
    # row's "cited" was lowered by every unanswerable question answered correctly
    report = tmp_path / "report.html"
    assert main(["eval", str(cases), "--out", str(report)]) == 0
    rows = {
        cells[0]: cells[1:]
        for line in capsys.readouterr().out.splitlines()
        if len(cells := [c.strip() for c in line.strip("│ ").split("│")]) == 5
    }
    assert rows["refunds"][-1] == "none (correct)"
    assert rows["sso"][-1] == "100.0% (should be none)"
    assert rows["retries"][-1] == rows["all"][-1] == "100.0%"
    html = report.read_text(encoding="utf-8")
    assert "<td>none (correct)</td>" in html and "<td>100.0% (should be none)</td>" in html
    assert html.count("<th>100.0%</th>") == 4  # the all row: recall, precision, in source, cited
