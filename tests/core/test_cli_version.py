"""``citecast --version`` names the installed release (pyproject.toml's version)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.cli import main

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_version_prints_the_release_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    release = tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]["version"]
    assert capsys.readouterr().out == f"citecast {release}\n"
