"""``citecast preview`` and ``citecast render`` mark the answer in ``assistant.language``, as the
channels do (:mod:`bot.connectors.render_context`): the web answer and the email's HTML part.

Found in an accessibility pass: both commands built their RenderContext without the setting, so
a preview with ``assistant.language: de`` was byte for byte the one without it, and the email
rendered by ``citecast render`` said only ``lang="en"``.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from bot.assistant.own_replies import NOT_FOUND
from bot.cli import main
from bot.models import Answer
from renderers.sample import sample_answer

SAMPLE = json.dumps(sample_answer().to_json())


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def german_config(tmp_path: Path) -> str:
    config = tmp_path / "german.yaml"
    config.write_text("assistant:\n  language: de\n", encoding="utf-8")
    return str(config)


def run(monkeypatch: pytest.MonkeyPatch, args: list[str], stdin: str = "") -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(args)


def preview(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], config: list[str]
) -> str:
    assert run(monkeypatch, [*config, "preview", "--out", "-"]) == 0
    return capsys.readouterr().out


def test_preview_marks_the_answer_in_the_configured_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    unset = preview(monkeypatch, capsys, [])
    german = preview(monkeypatch, capsys, ["--config", german_config(tmp_path)])
    assert 'lang="de"' not in unset
    # the web panel's answer and its source list, the email's body and its source list
    assert re.search(r'<div class="answer" id="answer-\w+" lang="de">', german), german
    assert re.search(r'<ol class="sources" id="sources-\w+" lang="de">', german), german
    assert '<div lang="de">' in german
    assert '<ol lang="de" style=' in german
    # citecast's own words stay English: the page, the web's "Sources" heading
    assert '<html lang="en">' in german
    assert '<section class="sources" aria-label="Sources" lang="en">' in german


def test_render_marks_the_email_in_the_configured_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--config", german_config(tmp_path), "render", "--channel", "email"]
    assert run(monkeypatch, args, SAMPLE) == 0
    html = json.loads(capsys.readouterr().out)["html"]
    assert '<html lang="en">' in html  # the email's own words ("Sources")
    assert re.search(r'<title lang="de">', html), html
    assert '<div lang="de">' in html
    assert '<ol lang="de" style=' in html


def test_render_all_marks_the_web_answer_in_the_configured_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--config", german_config(tmp_path), "render", "--channel", "all"]
    assert run(monkeypatch, args, SAMPLE) == 0
    web = json.loads(capsys.readouterr().out)["web"]["html"]
    assert re.search(r'<div class="answer" id="answer-\w+" lang="de">', web), web


def test_render_without_a_config_file_marks_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(monkeypatch, ["render", "--channel", "all"], SAMPLE) == 0
    payloads = json.loads(capsys.readouterr().out)
    assert " lang=" not in payloads["web"]["html"]
    assert re.findall(r' lang="[^"]*"', payloads["email"]["html"]) == [' lang="en"']


def test_citecasts_own_fixed_reply_stays_english_under_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    not_found = json.dumps(Answer(text=NOT_FOUND).to_json())
    args = ["--config", german_config(tmp_path), "render", "--channel", "all"]
    assert run(monkeypatch, args, not_found) == 0
    payloads = json.loads(capsys.readouterr().out)
    for html in (payloads["web"]["html"], payloads["email"]["html"]):
        assert 'lang="de"' not in html, html
