"""``citecast ask``: the answer, a Sources: list, --json, --channel, and no index yet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import Settings
from bot.models import Answer
from tests.assistant.conftest import EXAMPLES


@pytest.fixture
def config(tmp_path: Path, kb_settings: Settings) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(f"index:\n  path: {kb_settings.index.path}\n")
    return path


def test_ask_prints_the_answer_then_sources(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "ask", "What does the retry policy do?"]) == 0
    out = capsys.readouterr().out
    answer, sources = out.split("\n\nSources:\n")
    assert "[1]" in answer and "[^" not in answer
    lines = sources.strip().splitlines()
    # the guide's top heading "Administration guide" repeats words of its title: left out
    assert lines[0].startswith(
        "[1] citecast administration guide — Delivery and retries > Retry policy — "
    )
    assert lines[0].endswith("examples/administration.md")


def test_ask_does_not_repeat_the_title_as_the_first_heading(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # getting-started.md is titled by its top heading: its sections start with that title
    assert main(["--config", str(config), "ask", "How do I install citecast on Linux?"]) == 0
    sources = capsys.readouterr().out.split("\n\nSources:\n")[1]
    assert sources.startswith("[1] Getting started with citecast — Install > Linux — ")


def test_ask_shows_pdf_pages(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(config), "ask", "How often should I back up the store?"]) == 0
    out = capsys.readouterr().out
    assert "citecast operations handbook — 2. Backups — p. 2 — " in out


def test_ask_json_is_the_answer_contract(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(config), "ask", "How do I install citecast?", "--json"]) == 0
    answer = Answer.from_json(json.loads(capsys.readouterr().out))
    assert answer.citations and "[^1]" in answer.text
    # from_settings installs grounding (policy "annotate" by default): every citation is scored.
    assert all(c.support is not None for c in answer.citations)


def test_ask_audience_option(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    question = "What is the walrus salary band?"
    assert main(["--config", str(config), "ask", question]) == 0
    assert "could not find" in capsys.readouterr().out
    assert main(["--config", str(config), "ask", question, "--audience", "staff"]) == 0
    assert "salaries.md" in capsys.readouterr().out


def test_ask_audience_adds_to_public_and_never_replaces_it(
    tmp_path: Path, kb_settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        f"index:\n  path: {kb_settings.index.path}\n  records:\n    - name: products\n"
        f"      csv: {EXAMPLES / 'products.csv'}\n      id_column: sku\n"
        "      label_template: '{name} ({sku})'\n      columns: [tier, price_usd]\n"
    )
    ask = ["--config", str(config), "ask", "--audience", "staff"]
    assert main([*ask, "What does the Team plan cost?"]) == 0
    out = capsys.readouterr().out
    assert "citecast Team (CC-TEAM)" in out and "price_usd: 19" in out
    assert main([*ask, "How do I install citecast?"]) == 0
    assert "getting-started.md" in capsys.readouterr().out


@pytest.mark.parametrize("question", ["", "   \n\t"])
def test_ask_refuses_an_empty_question(
    question: str, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "ask", question]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "citecast ask: question is empty\n"


def test_ask_channel_prints_that_channels_payload(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["--config", str(config), "ask", "How do I install citecast?", "--channel", "web"])
        == 0
    )
    payload = json.loads(capsys.readouterr().out)
    assert set(payload) >= {"html", "citations"} and "getting-started.md" in json.dumps(payload)


def test_ask_without_an_index_says_how_to_build_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'none.db'}\n")
    assert main(["--config", str(config), "ask", "anything"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    # with the --config given: without it, the command would build some other index
    assert "no knowledge index" in err and f"`citecast --config {config} ingest PATH`" in err


def test_a_config_elsewhere_finds_its_index_and_records_from_any_directory(
    tmp_path: Path,
    kb_settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import shutil

    deploy = tmp_path / "deploy"
    (deploy / "data").mkdir(parents=True)
    shutil.copy(kb_settings.index.path, deploy / "data" / "index.db")
    shutil.copy(EXAMPLES / "products.csv", deploy / "data" / "products.csv")
    (deploy / "config.yaml").write_text(
        "index:\n"
        "  path: data/index.db\n"
        "  records:\n"
        "    - {name: products, csv: data/products.csv, label_template: '{name} ({sku})',\n"
        "       columns: [tier, price_usd]}\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)  # not the config's folder
    assert main(["--config", "deploy/config.yaml", "ask", "How much does Business cost?"]) == 0
    out = capsys.readouterr().out
    assert "citecast Business (CC-BIZ): tier: business; price_usd: 49 [1]" in out


def test_ask_channel_email_takes_its_subject_from_the_question(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    question = "How do I install citecast?"
    assert main(["--config", str(config), "ask", question, "--channel", "email"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["subject"] == question
