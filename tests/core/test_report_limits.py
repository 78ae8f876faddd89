"""``citecast report``: lists cut at ``--limit`` say how many more there are, and ``--json``
gives a whole number of days as a whole number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store

NOTHING = {"text": "I could not find anything about that in the knowledge base.", "citations": []}
CITED = {"text": "Install it.[^1]", "citations": [{"n": 1}]}


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A store with five different unanswered questions and three answers rated down."""
    store = Store(tmp_path / "store.db")
    for n in range(5):
        store.add_turn(f"c{n}", "web", f"Where is office {n}?", NOTHING)
    for n in range(3):
        turn = store.add_turn(f"d{n}", "web", f"How do I install part {n}?", CITED)
        store.add_feedback(turn, "web", None, "not_helpful")
    store.close()
    path = tmp_path / "config.yaml"
    path.write_text(f"store:\n  path: {tmp_path / 'store.db'}\n", encoding="utf-8")
    return path


def test_a_list_cut_at_the_limit_says_how_many_more(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --limit 1 showed one question and no hint that four more went unanswered
    assert main(["--config", str(config), "report", "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "  … and 4 more questions (--limit lists more)\n" in out
    assert "  … and 2 more answers (--limit lists more)\n" in out


def test_limit_zero_lists_none_but_says_how_many_there_are(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # found by QA: --limit 0 printed neither heading nor count, as if there were none
    assert main(["--config", str(config), "report", "--limit", "0"]) == 0
    out = capsys.readouterr().out
    assert (
        "Asked most often without sources (the documents to write next):\n"
        "  … and 5 more questions (--limit lists more)\n"
    ) in out
    assert "Latest answers rated not helpful:\n  … and 3 more answers (--limit lists more)\n" in out
    assert "Where is office" not in out


def test_a_list_that_is_whole_says_nothing_more(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "report", "--limit", "5"]) == 0
    assert "more" not in capsys.readouterr().out


def test_json_gives_the_count_beyond_the_limit_and_whole_days(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "report", "--json", "--limit", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["unanswered_more"], report["not_helpful_more"]) == (3, 1)
    assert report["days"] == 30 and isinstance(report["days"], int)  # was 30.0


def test_json_keeps_a_fraction_of_a_day(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(config), "report", "--json", "--days", "0.5"]) == 0
    assert json.loads(capsys.readouterr().out)["days"] == 0.5
