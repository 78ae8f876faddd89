"""A blank value on the command line (most often an unset ``"$VAR"``) is refused in one line.

Found in a QA pass of the CLI: ``--audience ""`` answered as the public in ``ask``, ``resolve``
and ``render`` while ``ingest`` refused it; ``citecast ingest ""`` ingested the working
directory; ``resolve --sources ""`` said ``: no such file``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.core.cli_runner import run_cli

HR_SOURCE = {
    "id": "pay",
    "title": "Pay scales",
    "url": "https://hr.example/pay",
    "audience": ["hr"],
}


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


@pytest.mark.parametrize("command", ["ask", "resolve", "render"])
@pytest.mark.parametrize(
    ("groups", "reason"),
    [
        ([""], "--audience '' names no group; leave --audience out to answer as the public"),
        (
            ["hr", " , "],
            "--audience ' , ' names no group; leave --audience out to answer as the public",
        ),
        (["hr,"], "empty group name in --audience 'hr,'"),
    ],
    ids=["blank", "blank-second", "trailing-comma"],
)
def test_a_blank_audience_is_refused_as_ingest_refuses_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    groups: list[str],
    reason: str,
) -> None:
    (tmp_path / "s.json").write_text(json.dumps([HR_SOURCE]), encoding="utf-8")
    answer = {"text": "Pay.[^1]", "citations": [{"n": 1, "source": HR_SOURCE}]}
    argv, stdin = {
        "ask": (["ask", "What are the pay scales?"], ""),
        "resolve": (["resolve", "--sources", "s.json"], "Pay [1]."),
        "render": (["render", "--channel", "discourse"], json.dumps(answer)),
    }[command]
    for group in groups:
        argv += ["--audience", group]
    code, out, err = run_cli(monkeypatch, capsys, argv, stdin)
    assert (code, out) == (2, "")
    assert err == f"citecast {command}: {reason}\n"


def test_audience_groups_still_read_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "s.json").write_text(json.dumps([HR_SOURCE]), encoding="utf-8")
    argv = ["resolve", "--sources", "s.json", "--audience", " staff , hr ", "--audience", "x"]
    code, out, err = run_cli(monkeypatch, capsys, argv, "Pay [1].")
    assert (code, err) == (0, "")
    assert [c["source"]["id"] for c in json.loads(out)["citations"]] == ["pay"]


@pytest.mark.parametrize("blank", ["", "  "])
def test_an_empty_ingest_path_is_refused_not_the_working_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blank: str
) -> None:
    (tmp_path / "private.md").write_text("# Notes\n\nThe safe code is 1234.\n", encoding="utf-8")
    assert main(["ingest", blank]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "citecast ingest: PATH: empty path; name a file or folder (. for this folder)\n"
    assert not (tmp_path / ".citecast").exists()  # nothing was ingested, no index written


def test_an_empty_sources_path_is_named_as_such(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(monkeypatch, capsys, ["resolve", "--sources", ""], "Fact [1].")
    assert (code, out) == (2, "")
    assert err == "citecast resolve: --sources: empty path; name a JSON file of sources\n"
