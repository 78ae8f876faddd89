"""A missing command or an empty answer is a usage error: one reason on stderr, status 2.

Found in a review of the CLI: ``citecast`` alone printed the whole help on stdout with status
2 (a pipe took the help as its input), and ``citecast resolve`` took empty stdin for an answer
that says nothing, where ``render`` refuses it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import COMMANDS, main
from tests.core.cli_runner import run_cli

USAGE = "usage: citecast [-h] [--config CONFIG] [--version] COMMAND ...\n"
CHOOSE = (
    f"citecast: error: choose a command: {', '.join(COMMANDS)} (citecast --help explains each)\n"
)


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "s.json").write_text('[{"id": "a", "title": "A"}]', encoding="utf-8")


@pytest.mark.parametrize("argv", [[], ["--config", "config.yaml"]], ids=["bare", "config-only"])
def test_no_command_is_the_usage_and_one_line_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert run_cli(monkeypatch, capsys, argv) == (2, "", USAGE + CHOOSE)


def test_help_is_still_the_whole_help_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out, err = capsys.readouterr()
    assert out.startswith(USAGE) and "examples:" in out
    assert err == ""


@pytest.mark.parametrize("stdin", ["", " \n\t\n"], ids=["empty", "blank"])
def test_resolve_refuses_empty_stdin_as_render_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str
) -> None:
    code, out, err = run_cli(monkeypatch, capsys, ["resolve", "--sources", "s.json"], stdin)
    assert (code, out) == (2, "")
    assert err == "citecast resolve: no input: stdin is empty; give it the model's raw answer\n"
    code, out, err = run_cli(monkeypatch, capsys, ["render"], stdin)
    assert (code, out) == (2, "")
    assert err.startswith("citecast render: no input: stdin is empty;")
