"""``${NAME:-default}`` takes the default when NAME is unset or empty, as the shell does.

Found in a QA pass of the configuration: with ``export PORT=`` (a variable cleared, or passed
empty by a container runtime), ``port: ${PORT:-8000}`` became a blank port and every command
stopped with "web.port: Input should be a valid integer".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_env import expand_env
from bot.config_file import load_settings


def test_an_empty_variable_takes_the_default() -> None:
    env = {"EMPTY": "", "SET": "9000"}
    assert expand_env(["${EMPTY:-8000}", "${SET:-8000}", "${UNSET:-8000}"], env) == [
        "8000",
        "9000",
        "8000",
    ]


def test_without_a_default_an_empty_variable_stays_empty() -> None:
    assert expand_env(["${EMPTY}", "${EMPTY:-}", "a${EMPTY}b"], {"EMPTY": ""}) == ["", "", "ab"]


def test_a_config_file_with_an_emptied_port_variable_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITECAST_TEST_PORT", "")
    config = tmp_path / "config.yaml"
    config.write_text("web:\n  port: ${CITECAST_TEST_PORT:-8001}\n", encoding="utf-8")
    assert load_settings(config).web.port == 8001
