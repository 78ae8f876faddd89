"""``citecast eval`` refuses an empty data or ``--out`` path by name, not as the current folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main

CASE = (
    '{"id": "one", "answer": "Retried 5 times [1].", '
    '"sources": [{"id": "ops", "title": "Ops", "text": "We retry 5 times."}]}\n'
)


def test_empty_data_path_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["eval", ""]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "citecast eval: empty data path; name a JSONL file of cases\n")


def test_empty_out_path_is_refused_before_any_case_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases.jsonl").write_text(CASE, encoding="utf-8")
    assert main(["eval", "cases.jsonl", "--out", ""]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "citecast eval: --out: empty path; name the HTML file to write\n")


def test_out_path_is_still_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases.jsonl").write_text(CASE, encoding="utf-8")
    assert main(["eval", "cases.jsonl", "--out", "report.html"]) == 0
    assert "report written to report.html" in capsys.readouterr().err
    assert "<html" in (tmp_path / "report.html").read_text(encoding="utf-8").lower()
