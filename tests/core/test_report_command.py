"""``citecast report``: per-channel usage, unanswered questions and ratings from the store."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store

CITED = {"text": "Install it.[^1]", "citations": [{"n": 1}]}
NOTHING = {"text": "I could not find anything about that in the knowledge base.", "citations": []}
WELCOME = {"text": "You're welcome!", "citations": []}


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A store with a month of web and Slack turns and votes, and one older turn."""
    store = Store(tmp_path / "store.db")
    old = store.add_turn("c0", "slack", "An old question?", CITED)
    first = store.add_turn("c1", "web", "How do I install it?", CITED)
    second = store.add_turn("c1", "web", "What does it cost?", CITED)
    store.add_turn("c2", "web", "How do I reset my password?", NOTHING)
    store.add_turn("c3", "web", "  how do I RESET my   password? ", NOTHING)
    store.add_turn("c4", "slack", "Is it down?", status="failed")
    store.add_turn("c5", "slack", "Still thinking?", status="pending")
    store.add_turn("c2", "web", "Thanks!", WELCOME)  # small talk: no document to write for it
    store.add_feedback(first, "web", None, "helpful")
    store.add_feedback(second, "web", None, "not_helpful")
    store.add_feedback(old, "slack", "U1", "not_helpful")  # asked long ago, rated now
    store.close()
    with sqlite3.connect(tmp_path / "store.db") as db:
        db.execute("UPDATE turns SET created_at = ? WHERE id = ?", (time.time() - 40 * 86400, old))
    path = tmp_path / "config.yaml"
    path.write_text(f"store:\n  path: {tmp_path / 'store.db'}\n", encoding="utf-8")
    return path


def test_report_json_counts_each_channel_and_lists_what_to_fix(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "report", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    web, slack = report["channels"]
    assert web == {
        "channel": "web", "asked": 5, "cited": 2, "without_sources": 2, "citations_dropped": 0,
        "small_talk": 1,
        "failed": 0, "unfinished": 0, "helpful": 1, "not_helpful": 1,
    }  # fmt: skip
    assert (slack["asked"], slack["failed"], slack["unfinished"], slack["not_helpful"]) == (
        2, 1, 1, 1,
    )  # fmt: skip
    assert report["total"]["asked"] == 7  # the 40-day-old question is outside the period
    # asked twice, however it was typed; shown as most often spelt (a tie: the first)
    assert report["unanswered"] == [["How do I reset my password?", 2]]
    assert report["not_helpful"] == [
        [1, "slack", "An old question?"],
        [3, "web", "What does it cost?"],
    ]


def test_report_prints_a_table_and_the_lists(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "report", "--days", "7"]) == 0
    out = capsys.readouterr().out
    assert "the last 7 days" in out
    header = next(line for line in out.splitlines() if "channel" in line)
    assert header.split() == [
        "channel", "asked", "cited", "no", "sources", "failed", "pending", "helpful", "unhelpful",
    ]  # fmt: skip
    assert "2×  How do I reset my password?" in out
    assert "Thanks" not in out  # small talk is no question to write a document for
    assert "Small talk (greetings, thanks): 1, answered without sources by design.\n" in out
    assert all(line == line.rstrip() for line in out.splitlines())  # no padded blank lines
    assert "turn 3 (web): What does it cost?" in out


def test_an_empty_period_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Store(tmp_path / "store.db").close()
    (tmp_path / "config.yaml").write_text(f"store:\n  path: {tmp_path / 'store.db'}\n")
    assert main(["--config", str(tmp_path / "config.yaml"), "report"]) == 0
    assert "No questions and no votes in this period." in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["report", "--days", "0"], "citecast report: --days must be more than 0, not 0\n"),
        (["report", "--limit", "-1"], "citecast report: --limit must be 0 or more, not -1\n"),
        (
            ["report", "--days", "740000"],
            "citecast report: --days must be at most 36500 (100 years), not 740000\n",
        ),
        (
            ["report", "--days", "inf"],
            "citecast report: --days must be at most 36500 (100 years), not inf\n",
        ),
        (
            ["report", "--days", "1e308", "--json"],
            "citecast report: --days must be at most 36500 (100 years), not 1e+308\n",
        ),
        (
            ["report", "--days", "nan"],
            "citecast report: --days must be a number of days, not nan\n",
        ),
    ],
)
def test_bad_options_are_one_line(
    config: Path, capsys: pytest.CaptureFixture[str], argv: list[str], reason: str
) -> None:
    assert main(["--config", str(config), *argv]) == 2
    assert capsys.readouterr().err == reason


def test_no_store_yet_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "config.yaml").write_text(f"store:\n  path: {tmp_path / 'none.db'}\n")
    assert main(["--config", str(tmp_path / "config.yaml"), "report"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no store at" in err and "citecast serve creates it" in err
    assert not (tmp_path / "none.db").exists()  # reading never creates a store


def test_days_up_to_a_century_are_reported_and_beyond_refused(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "report", "--days", "36500", "--json"]) == 0
    report = json.loads(capsys.readouterr().out, parse_constant=pytest.fail)  # no -Infinity
    assert report["total"]["asked"] == 8  # the 40-day-old question is inside a century
    assert main(["--config", str(config), "report", "--days", "36500.5"]) == 2
    assert "at most 36500" in capsys.readouterr().err


def test_one_day_is_singular(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(config), "report", "--days", "1"]) == 0
    assert capsys.readouterr().out.startswith("citecast report: the last day (since ")


def test_long_questions_take_one_line_in_text_and_stay_whole_in_json(
    config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    pasted = "Why does this fail?\n" + "Traceback line of a pasted log\n" * 130  # ~4,000 chars
    store = Store(config.parent / "store.db")
    store.add_turn("c6", "web", pasted, NOTHING)
    rated = store.add_turn("c7", "slack", "How  do\n\tI pay?", CITED)
    store.add_feedback(rated, "slack", "U2", "not_helpful")
    store.close()

    assert main(["--config", str(config), "report"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    [long_line] = [line for line in lines if "Why does this fail?" in line]
    assert (
        long_line.startswith("    1×  Why does this fail? Traceback line") and long_line[-1] == "…"
    )
    assert f"  turn {rated} (slack): How do I pay?" in lines  # whitespace tidied on one line

    assert main(["--config", str(config), "report", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [" ".join(pasted.split()), 1] in report["unanswered"]  # the whole question
    assert [rated, "slack", "How  do\n\tI pay?"] in report["not_helpful"]


def test_a_store_path_naming_another_database_is_refused_and_left_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "app.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    before = other.read_bytes()
    path = tmp_path / "config.yaml"
    path.write_text(f"store:\n  path: {other}\n", encoding="utf-8")
    assert main(["--config", str(path), "report"]) == 2
    err = capsys.readouterr().err.strip()
    assert "not a citecast store" in err and "customers" in err and "\n" not in err
    assert other.read_bytes() == before
    assert not Path(f"{other}-wal").exists()


def test_counts_of_four_digits_keep_the_questions_in_one_column(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(config.parent / "store.db")
    for n in range(1000):
        store.add_turn(f"many{n}", "web", "Where is the VPN guide?", NOTHING)
    store.close()

    assert main(["--config", str(config), "report"]) == 0
    lines = capsys.readouterr().out.splitlines()
    often = next(line for line in lines if "Where is the VPN guide?" in line)
    twice = next(line for line in lines if "How do I reset my password?" in line)
    assert often.startswith("  1000×  ") and twice.startswith("     2×  ")
    assert often.index("Where") == twice.index("How")
