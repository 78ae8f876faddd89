"""``citecast report`` lists an answer rated down by several people once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store

CITED = {"text": "Install it.[^1]", "citations": [{"n": 1}]}


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """Three answers rated down; the first by three Slack users, the last time latest."""
    store = Store(tmp_path / "store.db")
    first = store.add_turn("c1", "slack", "How do I install it?", CITED)
    second = store.add_turn("c2", "slack", "What does it cost?", CITED)
    third = store.add_turn("c3", "web", "Can I use my own model?", CITED)
    store.add_feedback(second, "slack", "U1", "not_helpful")
    store.add_feedback(first, "slack", "U1", "not_helpful")
    store.add_feedback(third, "web", None, "not_helpful")
    for user in ("U2", "U3"):  # rated down again: the latest rating now
        store.add_feedback(first, "slack", user, "not_helpful")
    store.close()
    path = tmp_path / "config.yaml"
    path.write_text(f"store:\n  path: {tmp_path / 'store.db'}\n", encoding="utf-8")
    return path


def test_each_rated_down_answer_is_listed_once_latest_first(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the same turn filled the list once per vote, pushing other answers past --limit
    assert main(["--config", str(config), "report", "--json", "--limit", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["not_helpful"] == [
        [1, "slack", "How do I install it?"],
        [3, "web", "Can I use my own model?"],
        [2, "slack", "What does it cost?"],
    ]
    assert report["total"]["not_helpful"] == 5  # the table still counts every vote


def test_the_text_report_shows_each_rated_down_answer_once(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "report"]) == 0
    out = capsys.readouterr().out
    assert out.count("turn 1 (slack): How do I install it?") == 1
    assert "turn 2 (slack): What does it cost?" in out
