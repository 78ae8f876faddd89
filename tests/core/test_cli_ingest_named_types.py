"""A file named to ``citecast ingest`` that no reader takes is named in the summary, with why.

Found walking through the Quickstart: ``citecast ingest offices.csv`` (a new user's first try
at adding a table) printed "0 files ... 1 file of other types ignored" with status 0, and
nothing said which file, or that a CSV table is read through ``index.records`` instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main

WHY = "not a type citecast reads (Markdown, text, HTML or PDF)"
RECORDS = "; list a CSV or SQLite table under index.records in config.yaml instead"


@pytest.fixture(autouse=True)
def _docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nAlpha.\n", encoding="utf-8")
    (tmp_path / "docs" / "logo.png").write_bytes(b"\x89PNG")
    (tmp_path / "offices.csv").write_text("code,city\nBER,Berlin\n", encoding="utf-8")
    (tmp_path / "notes.docx").write_bytes(b"PK")


def test_a_named_file_of_another_type_is_named_with_the_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ingest", "docs", "offices.csv", "notes.docx", "offices.csv"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[1:4] == [
        "3 files of other types ignored (.csv 1, .docx 1, .png 1)",
        f"  ignored offices.csv: {WHY}{RECORDS}",
        f"  ignored notes.docx: {WHY}",
    ]
    assert lines[4].startswith("index .citecast/index.db: 1 file, 1 chunk")


def test_a_folder_s_other_files_are_only_counted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", "docs"]) == 0
    out, _ = capsys.readouterr()
    assert "1 file of other types ignored (.png 1)\n" in out
    assert "  ignored" not in out


def test_a_table_already_listed_under_index_records_is_not_sent_there_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # QA: `citecast ingest kb/data/warehouses.csv` said to list it under index.records,
    # where config.yaml already listed it
    (tmp_path / "kb" / "data").mkdir(parents=True)
    (tmp_path / "kb" / "data" / "warehouses.csv").write_text("code\nN1\n", encoding="utf-8")
    (tmp_path / "config.yaml").write_text(
        "index:\n  records:\n    - name: warehouses\n      csv: kb/data/warehouses.csv\n",
        encoding="utf-8",
    )
    assert main(["ingest", "kb/data/warehouses.csv", "offices.csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2:4] == [
        "  ignored kb/data/warehouses.csv: a record table already listed under index.records "
        "(warehouses); citecast reads it from there at start, so it needs no ingest",
        f"  ignored offices.csv: {WHY}{RECORDS}",
    ]
