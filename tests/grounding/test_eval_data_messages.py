"""What ``citecast eval`` says about a data file's values, and the all row's case counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

SOURCES = [{"id": "ops#3", "title": "Operations", "text": "Failed sends are retried 5 times."}]
GOOD = {"id": "good", "answer": "Failed sends are retried 5 times [1].", "sources": SOURCES}


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("written", "shown"), [('"yes"', '"yes"'), ("1", "1"), ("null", "null")])
def test_supported_that_is_not_true_or_false_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, shown: str
) -> None:
    # it said "needs claim (string), source (id), supported", though all three were there
    label = f'{{"claim": "Retried 5 times.", "source": "ops#3", "supported": {written}}}'
    line = json.dumps(GOOD)[:-1] + f', "labels": [{label}]}}'
    cases = _file(tmp_path, line + "\n")
    assert main(["eval", str(cases)]) == 2
    assert capsys.readouterr().err == (
        f"citecast eval: {cases}:1: labels[0]: supported must be true or false, not {shown}\n"
    )


def test_a_label_without_supported_still_names_the_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps({**GOOD, "labels": [{"claim": "Retried.", "source": "ops#3"}]})
    cases = _file(tmp_path, line + "\n")
    assert main(["eval", str(cases)]) == 2
    assert capsys.readouterr().err == (
        f"citecast eval: {cases}:1: labels[0]: needs claim (string), source (id), supported\n"
    )


def test_hash_lines_are_comments_as_slash_lines_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _file(tmp_path, f"# retry cases\n  # indented too\n// and this\n{json.dumps(GOOD)}\n")
    assert main(["eval", str(cases), "--json"]) == 0
    assert [case["id"] for case in json.loads(capsys.readouterr().out)["cases"]] == ["good"]


def test_the_all_row_says_how_many_cases_a_mean_is_over_when_fewer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # one cited case of three: its 100.0% precision read as the whole data set's
    uncited = [{"id": f"u{n}", "answer": "Backups run every night."} for n in (1, 2)]
    cases = _file(tmp_path, "".join(json.dumps(c) + "\n" for c in [GOOD, *uncited]))
    assert main(["eval", str(cases)]) == 0
    out = capsys.readouterr().out
    assert (
        "all row: precision over 1 of 3 cases, in source over 1 of 3 (the others have no"
        " value)\n" in out
    )
