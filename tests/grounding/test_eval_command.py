"""``citecast eval``: a report path or a case it cannot use is one line and status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.errors import ValidationError
from bot.evaluation.report import write_html

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "eval" / "citations.jsonl"


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def test_out_naming_a_folder_is_refused_before_any_case_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", str(SAMPLE), "--out", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert err == f"citecast eval: cannot write {tmp_path}: Is a directory\n"
    assert out == ""  # refused up front, not after printing the whole table


def test_out_in_a_missing_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "missing" / "report.html"
    assert main(["eval", str(SAMPLE), "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert err == f"citecast eval: cannot write {target}: no folder {target.parent}\n"


def test_write_html_turns_an_os_error_into_one_line(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match=r"^cannot write .*: Is a directory$"):
        write_html([], tmp_path, 0.5)


@pytest.mark.parametrize("question", ["", "   "])
def test_an_empty_question_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        '{"id": "ok", "answer": "Fine [1].", "sources": [{"id": "s", "text": "Fine."}]}\n'
        f'{{"id": "blank", "question": "{question}"}}\n',
        encoding="utf-8",
    )
    assert main(["eval", str(cases)]) == 2
    assert capsys.readouterr().err == f"citecast eval: {cases}:2: question is empty\n"
