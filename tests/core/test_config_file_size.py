"""A config file too large to be one is refused unread, in one line.

Found in a QA pass of the configuration: ``--config /dev/zero`` ended in a MemoryError
traceback, and a 40 MB file given by mistake was read whole and parsed for over a minute.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config_file import MAX_CONFIG_BYTES, load_settings
from bot.errors import ConfigError


def test_an_endless_file_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", "/dev/zero", "report"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "citecast report: /dev/zero: larger than 1 MB; is it the config file?\n"


def test_a_file_just_over_the_limit_is_refused_and_one_at_it_is_read(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    body = "web:\n  port: 8123\n"
    config.write_text(body + "#" * (MAX_CONFIG_BYTES - len(body)), encoding="utf-8")
    assert load_settings(config).web.port == 8123
    with config.open("a", encoding="utf-8") as handle:
        handle.write("#")
    with pytest.raises(ConfigError, match="larger than 1 MB"):
        load_settings(config)
