"""``citecast eval`` refuses recorded cases whose gold or source ids cannot mean what they say."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main

SOURCE = {"id": "ops#3", "title": "Operations", "text": "We retry failed sends 5 times."}
ANSWER = "Failed sends are retried 5 times [1]."


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def _run(tmp_path: Path, case: dict[str, Any]) -> tuple[int, str]:
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(case) + "\n", encoding="utf-8")
    return main(["eval", str(cases)]), str(cases)


def test_a_misspelt_gold_id_of_a_recorded_answer_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # it was measured: the typo could never be cited, so gold recall silently fell to 50%
    case = {"id": "r", "answer": ANSWER, "sources": [SOURCE], "gold_citations": ["ops#3", "ops3"]}
    status, path = _run(tmp_path, case)
    assert status == 2
    assert capsys.readouterr() == (
        "",
        f"citecast eval: {path}:1: gold_citations[1]: source 'ops3' is not among the case's"
        " sources\n",
    )


def test_two_different_sources_with_one_id_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the registry kept the first: the answer was scored against "5 times" and read as wrong
    other = {**SOURCE, "text": "We retry failed sends 6 times."}
    answer = "Failed sends are retried 6 times [1]."
    case = {"id": "r", "answer": answer, "sources": [SOURCE, other]}
    status, path = _run(tmp_path, case)
    assert status == 2
    assert capsys.readouterr() == (
        "",
        f"citecast eval: {path}:1: sources[1]: id 'ops#3' is also sources[0]'s, with other"
        " content; give each source its own id\n",
    )


def test_a_source_repeated_as_it_is_and_gold_among_the_sources_still_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = {"id": "r", "answer": ANSWER, "sources": [SOURCE, SOURCE], "gold_citations": ["ops#3"]}
    status, _ = _run(tmp_path, case)
    out = capsys.readouterr().out
    assert status == 0
    assert "gold citations: precision 100.0%, recall 100.0%" in out
