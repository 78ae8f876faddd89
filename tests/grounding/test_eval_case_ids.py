"""``citecast eval`` shows a case id as it was written, whatever brackets it holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import Settings
from bot.knowledge import ingest


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def _recorded(case_id: str) -> str:
    return json.dumps(
        {"id": case_id, "answer": "Fine [1].", "sources": [{"id": "s", "text": "Fine."}]}
    )


@pytest.mark.parametrize("case_id", ["[/bold]", "[red]retries", "a [link=x]b[/link]"])
def test_an_id_with_brackets_is_shown_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case_id: str
) -> None:
    # rich read the id as markup: "[/bold]" ended the run with a MarkupError traceback and
    # "[red]retries" showed as "retries", so a row could not be matched with its case
    cases = tmp_path / "cases.jsonl"
    cases.write_text(_recorded(case_id) + "\n", encoding="utf-8")
    assert main(["eval", str(cases)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    row = next(line for line in out.splitlines() if "100.0%" in line and "all" not in line)
    assert row.split("│")[1].strip() == case_id


def test_the_progress_bar_shows_a_question_case_id_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the bar (shown on a terminal while questions are asked) also read the id as markup
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "links.md").write_text(
        "# Links\n\nDownload links expire after one hour.\n", encoding="utf-8"
    )
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "index.db")}})
    ingest([docs], settings.index)
    (tmp_path / "config.yaml").write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8"
    )
    question = {"id": "[/bold]", "question": "When do download links expire?"}
    (tmp_path / "cases.jsonl").write_text(json.dumps(question) + "\n", encoding="utf-8")
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich then takes stderr for a terminal
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert main(["eval", "cases.jsonl"]) == 0
    out, err = capsys.readouterr()
    assert "MarkupError" not in err and "Traceback" not in err
    assert "[/bold]" in out


def test_a_large_file_of_recorded_answers_shows_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # thousands of recorded answers ran for minutes without a sign of life
    from bot.commands import eval as eval_command

    monkeypatch.setattr(eval_command, "_QUIET_CASES", 2, raising=False)
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(_recorded(f"case-{i}") + "\n" for i in range(3)), encoding="utf-8")
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich then takes stderr for a terminal
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert main(["eval", str(cases)]) == 0
    assert "evaluating" in capsys.readouterr().err
