"""``citecast report`` prints anyone's questions: they reach the operator's terminal as text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store

CITED = {"text": "Install it.[^1]", "citations": [{"n": 1}]}
NOTHING = {"text": "I could not find anything about that in the knowledge base.", "citations": []}

# colour, a window-title change (OSC ended by BEL), clear-screen, an 8-bit CSI, and a bidi
# override that would show the rest of the line reversed
HOSTILE = "red \x1b[31mALERT\x1b[0m \x1b]0;pwned\x07 \x1b[2J \x9b1m abc \u202eevil\u2066x\u2069"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    store = Store(tmp_path / "store.db")
    store.add_turn("c1", "web", HOSTILE, NOTHING)
    rated = store.add_turn("c2", "slack", HOSTILE, CITED)
    store.add_feedback(rated, "slack", "U1", "not_helpful")
    store.add_turn("c3", "[bold]odd", "[bold]not bold[/bold] [link=http://x]l[/link]", NOTHING)
    store.close()
    path = tmp_path / "config.yaml"
    path.write_text(f"store:\n  path: {tmp_path / 'store.db'}\n", encoding="utf-8")
    return path


def test_control_and_bidi_characters_are_shown_not_acted_on(
    config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["--config", str(config), "report"]) == 0
    out = capsys.readouterr().out
    for char in "\x1b\x07\x9b\u202e\u2066\u2069":
        assert char not in out
    shown = r"red \x1b[31mALERT\x1b[0m \x1b]0;pwned\x07 \x1b[2J \x9b1m abc \u202eevil\u2066x\u2069"
    assert f"    1×  {shown}" in out.splitlines()
    assert f"  turn 2 (slack): {shown}" in out.splitlines()


def test_json_keeps_the_question_exactly(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(config), "report", "--json"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out  # JSON writes a control character as \u001b
    report = json.loads(out)
    assert [HOSTILE, 1] in report["unanswered"]
    assert report["not_helpful"] == [[2, "slack", HOSTILE]]


def test_markup_in_a_channel_or_question_is_printed_as_written(
    config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["--config", str(config), "report"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.split()[:2] == ["[bold]odd", "1"] for line in lines if line.strip())
    assert "    1×  [bold]not bold[/bold] [link=http://x]l[/link]" in lines


def test_a_store_path_that_is_a_folder_is_named_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.yaml").write_text(f"store:\n  path: {tmp_path}\n", encoding="utf-8")
    assert main(["--config", str(tmp_path / "config.yaml"), "report"]) == 2
    assert capsys.readouterr().err == (
        f"citecast report: store.path {tmp_path} is a folder, not a store file\n"
    )


def test_a_damaged_answer_counts_as_one_without_sources(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.db")
    store.add_turn("c1", "web", "What is fine?", {"text": "x", "citations": [{"n": 1}]})
    turn = store.add_turn("c1", "web", "What is damaged?", {"text": "y", "citations": []})
    with store._tx() as db:  # a row damaged on disk, or NaN written by an older release
        db.execute("UPDATE turns SET answer_json = '{not json' WHERE id = ?", (turn,))
    outcomes = store.outcomes_since(0.0)
    store.close()
    assert [o[4] for o in outcomes] == [1, None]
