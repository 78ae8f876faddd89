"""``render`` and ``preview --answer -`` check config.yaml before they read stdin, as
``resolve`` does.

Found in a README-as-reference QA pass: with a mistake in config.yaml, both read the whole of
stdin first (an answer pasted at a prompt, ended with Ctrl-D) and only then said the config was
wrong, losing what was typed.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bot.cli import main

ANSWER = json.dumps({"text": "Install it.[^1]", "citations": [{"n": 1, "source": {"id": "a"}}]})


@pytest.mark.parametrize(
    "argv",
    [
        ["render", "--channel", "web"],
        ["preview", "--answer", "-", "--out", "-"],
        ["resolve", "--sources", "SOURCES"],
    ],
    ids=["render", "preview", "resolve"],
)
def test_a_config_error_comes_before_stdin_is_read(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("web:\n  prot: 8000\n", encoding="utf-8")
    sources = tmp_path / "s.json"
    sources.write_text('[{"id": "a"}]', encoding="utf-8")
    stdin = io.StringIO(ANSWER)
    monkeypatch.setattr(sys, "stdin", stdin)
    argv = [str(sources) if arg == "SOURCES" else arg for arg in argv]
    assert main(["--config", str(config), *argv]) == 2
    assert stdin.tell() == 0, "stdin was read before the config was checked"
    assert capsys.readouterr() == (
        "",
        f"citecast {argv[0]}: {config}: web.prot: unknown key (did you mean port?)\n",
    )
