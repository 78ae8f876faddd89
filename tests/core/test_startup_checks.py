"""``citecast ask`` and ``render`` refuse, in one line, a config they could not answer with."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import main

ANSWER = json.dumps({"text": "Install it with pip.", "citations": []})


def write_config(tmp_path: Path, config: dict[str, Any]) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "command", [["ask", "How do I install it?"], ["render", "--channel", "web"]], ids=str
)
def test_a_made_up_capabilities_channel_stops_the_command(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    path = write_config(tmp_path, {"capabilities": {"irc": {"max_chars": 400}}})
    monkeypatch.setattr("sys.stdin", io.StringIO(ANSWER))
    assert main(["--config", str(path), *command]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"citecast {command[0]}: {path}: capabilities.irc: unknown channel "
        "(channels: web, slack, discord, email, discourse)\n"
    )


def test_ask_refuses_a_record_table_it_cannot_read_before_answering(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "plans.csv").write_text("sku,name\nP1,Team\n", encoding="utf-8")
    tables = [{"name": "plans", "csv": "plans.csv", "columns": ["price"]}]
    path = write_config(tmp_path, {"index": {"records": tables}})
    assert main(["--config", str(path), "ask", "What does Team cost?"]) == 2
    assert capsys.readouterr().err == (
        f"citecast ask: {path}: index.records.0.columns: no column 'price' in table 'plans' "
        "(columns: sku, name)\n"
    )
