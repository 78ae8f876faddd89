"""Small slips of a CLI/config QA pass, each now said in the command's words: a bare number
after ``serve``/``report``, an empty ``--host``, a misspelt capabilities channel, a config file
named by ``$CITECAST_CONFIG``, a backwards page range in ``resolve``'s sources, and a control
character in an ``--audience`` group."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.config_file import load_settings
from bot.errors import ConfigError


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


@pytest.mark.parametrize(
    ("argv", "hint"),
    [(["serve", "9110"], "did you mean --port 9110?"), (["report", "7"], "did you mean --days 7?")],
    ids=["serve-port", "report-days"],
)
def test_a_bare_number_names_the_option_it_was_meant_for(
    capsys: pytest.CaptureFixture[str], argv: list[str], hint: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert f"unrecognized arguments: {argv[1]} ({hint})" in capsys.readouterr().err


def test_an_empty_host_is_refused_not_replaced(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", " "]) == 2
    assert capsys.readouterr().err == (
        "citecast serve: --host: empty; name the address to listen on, such as 127.0.0.1\n"
    )


def test_a_misspelt_capabilities_channel_gets_the_closest(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("capabilities:\n  slak:\n    tables: false\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert str(caught.value) == f"{path}: capabilities.slak: unknown channel (did you mean slack?)"


def test_a_missing_config_named_by_the_environment_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CITECAST_CONFIG", "nope.yaml")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert str(caught.value) == "nope.yaml: no such config file (named by $CITECAST_CONFIG)"
    with pytest.raises(ConfigError) as named:
        load_settings("nope.yaml")  # --config is on the command line for all to see
    assert str(named.value) == "nope.yaml: no such config file"


@pytest.mark.parametrize(
    ("pages", "needs"),
    [({"page": 7, "page_end": 3}, "page (7) or more"), ({"page_end": 3}, "a page")],
    ids=["backwards", "no-page"],
)
def test_resolve_refuses_a_page_range_that_does_not_run_forwards(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    pages: dict[str, int],
    needs: str,
) -> None:
    source = {"id": "a", "title": "t", "text": "Herons wade.", **pages}
    (tmp_path / "sources.json").write_text(json.dumps([source]), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("Herons wade [a]."))
    assert main(["resolve", "--sources", "sources.json"]) == 2
    assert capsys.readouterr().err == (
        f"citecast resolve: sources.json: entry 1: source 'a': page_end (3) needs {needs}\n"
    )


def test_a_control_character_in_an_audience_group_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ask", "--audience", "st\naff", "How do I install it?"]) == 2
    assert capsys.readouterr().err.startswith(
        "citecast ask: a control character or line break in a group name in --audience 'st\\naff'"
    )
