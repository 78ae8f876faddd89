"""``citecast preview --out -`` writes the page on stdout, as ``--answer -`` reads stdin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli_runner import run_cli

ANSWER = json.dumps(
    {
        "text": "Fact [^1].",
        "citations": [{"n": 1, "source": {"id": "a", "title": "A", "url": "https://e.com/a"}}],
    }
)


def test_out_dash_prints_the_page_instead_of_writing_a_file_named_dash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(
        monkeypatch, capsys, ["preview", "--answer", "-", "--out", "-"], ANSWER
    )
    assert (code, err) == (0, "")
    assert out.startswith("<!DOCTYPE html>") and "https://e.com/a" in out
    assert list(tmp_path.iterdir()) == []  # no file "-" left behind


def test_out_dash_with_an_answer_file_is_not_taken_for_that_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "answer.json").write_text(ANSWER, encoding="utf-8")
    code, out, err = run_cli(
        monkeypatch, capsys, ["preview", "--answer", "answer.json", "--out", "-"]
    )
    assert (code, err) == (0, "")
    assert "https://e.com/a" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer.json"]
