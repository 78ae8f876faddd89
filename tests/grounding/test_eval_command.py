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
    assert err == f"citecast eval: cannot write {tmp_path}: is a folder, not a file\n"
    assert out == ""  # refused up front, not after printing the whole table


def test_out_in_a_missing_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "missing" / "report.html"
    assert main(["eval", str(SAMPLE), "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert err == f"citecast eval: cannot write {target}: no folder {target.parent}\n"


def test_write_html_turns_an_os_error_into_one_line(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match=r"^cannot write .*: is a folder, not a file$"):
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


def _case_file(tmp_path: Path, line: str) -> Path:
    cases = tmp_path / "cases.jsonl"
    cases.write_text(line + "\n", encoding="utf-8")
    return cases


def test_a_misspelt_field_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "gold_citation" used to be ignored: the gold metrics silently vanished from the report
    cases = _case_file(
        tmp_path,
        '{"id": "a", "answer": "Fine [1].", "sources": [{"id": "s", "text": "Fine."}],'
        ' "gold_citation": ["s"]}',
    )
    assert main(["eval", str(cases)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"citecast eval: {cases}:1: unknown field(s): gold_citation (known: ")
    assert err.count("\n") == 1 and out == ""


def test_a_label_naming_no_source_of_a_recorded_answer_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a typo in the label's source id used to count as the scorer's mistake (score 0)
    cases = _case_file(
        tmp_path,
        '{"id": "a", "answer": "Fine [1].", "sources": [{"id": "s", "text": "Fine."}],'
        ' "labels": [{"claim": "Fine", "source": "zzz", "supported": true}]}',
    )
    assert main(["eval", str(cases)]) == 2
    assert capsys.readouterr().err == (
        f"citecast eval: {cases}:1: labels[0]: source 'zzz' is not among the case's sources\n"
    )


@pytest.mark.parametrize("case_id", ['{"x": 1}', "[1]", "true", "1.5"])
def test_an_id_that_is_not_a_string_or_whole_number_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case_id: str
) -> None:
    cases = _case_file(
        tmp_path,
        f'{{"id": {case_id}, "answer": "Fine [1].", "sources": [{{"id": "s", "text": "Fine."}}]}}',
    )
    assert main(["eval", str(cases)]) == 2
    # 1.5 is a number: "a string or a number" did not say what was wrong with it
    assert capsys.readouterr().err == (
        f"citecast eval: {cases}:1: id must be a string or a whole number, not {case_id}\n"
    )


def test_out_that_cannot_be_created_is_refused_before_any_case_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # /proc takes no new files, even for root: this used to fail only after the whole run
    target = Path("/proc/citecast-report.html")
    assert main(["eval", str(SAMPLE), "--out", str(target)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"citecast eval: cannot write {target}: ")
    assert err.count("\n") == 1 and out == ""


def test_checking_out_leaves_no_file_behind_when_the_run_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "report.html"
    cases = _case_file(tmp_path, '{"id": "a", "answer": "x", "bogus": 1}')
    assert main(["eval", str(cases), "--out", str(target)]) == 2
    assert not target.exists()


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--runs", "0", "--runs must be at least 1, not 0"),
        ("--runs", "-3", "--runs must be at least 1, not -3"),
        ("--threshold", "1.5", "--threshold must be between 0 and 1, not 1.5"),
        ("--threshold", "nan", "--threshold must be between 0 and 1, not nan"),
    ],
)
def test_bad_runs_and_threshold_are_one_line(
    capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    # a usage error ends with where to read more, as argparse's own do (README)
    assert main(["eval", str(SAMPLE), option, value]) == 2
    assert capsys.readouterr().err == (f"citecast eval: {message} (see citecast eval --help)\n")


def test_a_file_starting_with_a_byte_order_mark_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Notepad's "UTF-8 with BOM" used to fail with "line 1: not valid JSON: Unexpected UTF-8 BOM"
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        '\ufeff{"id": "a", "answer": "Fine [1].", "sources": [{"id": "s", "text": "Fine."}]}\n',
        encoding="utf-8",
    )
    assert main(["eval", str(cases)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "100.0%" in out


def test_out_naming_the_data_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the HTML report used to replace the data set it had just measured
    cases = _case_file(
        tmp_path, '{"id": "a", "answer": "Fine [1].", "sources": [{"id": "s", "text": "Fine."}]}'
    )
    before = cases.read_text(encoding="utf-8")
    assert main(["eval", "cases.jsonl", "--out", str(cases)]) == 2  # the cwd is tmp_path
    assert capsys.readouterr().err == f"citecast eval: --out {cases} is the data file itself\n"
    assert cases.read_text(encoding="utf-8") == before


def test_a_data_file_over_the_size_limit_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `citecast eval /dev/zero` read until the memory ran out; the cap is lowered here so the
    # test need not write 50 MB
    from bot.evaluation import dataset

    monkeypatch.setattr(dataset, "MAX_DATASET_BYTES", 100, raising=False)
    line = '{"id": "a", "answer": "Fine [1].", "sources": [{"id": "s", "text": "Fine."}]}'
    cases = _case_file(tmp_path, "\n".join([line.replace('"a"', f'"a{i}"') for i in range(3)]))
    assert main(["eval", str(cases)]) == 2
    assert capsys.readouterr().err.startswith(f"citecast eval: {cases}: larger than ")


def test_the_html_report_shows_the_gold_line_the_terminal_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    assert main(["eval", str(SAMPLE), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "gold citations: precision 85.7%, recall 100.0%" in " ".join(printed.split())
    assert "<p>Gold citations: precision 85.7%, recall 100.0%.</p>" in out.read_text()
