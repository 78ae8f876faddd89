"""``citecast eval`` names the line of a duplicate case id, as it does for every other mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main

LINE = '{{"id": {case_id}, "answer": "Fine [1].", "sources": [{{"id": "s", "text": "Fine."}}]}}'


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


@pytest.mark.parametrize(("first", "again"), [('"retries"', '"retries"'), ("7", '"7"')])
def test_a_duplicate_id_names_both_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], first: str, again: str
) -> None:
    # it said only "duplicate case id 'retries'": in a file of hundreds of cases, find it
    cases = tmp_path / "cases.jsonl"
    lines = [
        LINE.format(case_id=first),
        "",
        LINE.format(case_id='"other"'),
        LINE.format(case_id=again),
    ]
    cases.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["eval", str(cases)]) == 2
    case_id = first.strip('"')
    assert capsys.readouterr() == (
        "",
        f"citecast eval: {cases}:4: duplicate case id {case_id!r} (first on line 1)\n",
    )
