"""``citecast ingest FOLDER`` says which types of file it ignored, not only how many.

Found in a new-user walkthrough: "3 files of other types ignored" left the user to guess
whether a document they meant to index was among them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.commands.ingest_summary import ignored_types


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def _summary_line(out: str) -> str:
    return next(line for line in out.splitlines() if "of other types ignored" in line)


def test_the_ignored_files_are_counted_by_suffix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "guide.md").write_text("# Guide\n\nHerons wade.\n", encoding="utf-8")
    (docs / "rows.csv").write_text("a,b\n", encoding="utf-8")
    (docs / "eval.jsonl").write_text("{}\n", encoding="utf-8")
    (docs / "sub" / "make.py").write_text("print()\n", encoding="utf-8")
    (docs / "sub" / "more.PY").write_text("print()\n", encoding="utf-8")
    (docs / "Makefile").write_text("all:\n", encoding="utf-8")
    assert main(["ingest", "docs"]) == 0
    out = capsys.readouterr().out
    assert _summary_line(out) == (
        "5 files of other types ignored (.py 2, .csv 1, .jsonl 1, no extension 1)"
    )


def test_a_suffix_that_looks_like_markup_is_printed_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nAlpha.\n", encoding="utf-8")
    (docs / "b.[bold]").write_text("x\n", encoding="utf-8")
    assert main(["ingest", "docs"]) == 0
    assert _summary_line(capsys.readouterr().out) == ("1 file of other types ignored (.[bold] 1)")


def test_the_list_names_a_handful_of_suffixes_and_counts_the_rest() -> None:
    counts = {".a": 1, ".b": 2, ".c": 3, ".d": 4, ".e": 5, ".f": 6, ".g": 1, "": 1}
    assert ignored_types(counts) == ".f 6, .e 5, .d 4, .c 3, .b 2, 3 more"


def test_files_without_an_extension_are_named_without_doubled_brackets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # QA: "1 file of other types ignored ((no suffix) 1)"
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nAlpha.\n", encoding="utf-8")
    (docs / "LICENSE").write_text("MIT\n", encoding="utf-8")
    assert main(["ingest", "docs"]) == 0
    line = _summary_line(capsys.readouterr().out)
    assert line == "1 file of other types ignored (no extension 1)"
    assert "((" not in line
