"""A config file refused at load: the tests of one config check write the YAML they refuse and
compare the one line citecast says."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError


def refused(tmp_path: Path, yaml: str) -> tuple[Path, str]:
    """The config file ``yaml`` was written to, and the ConfigError its loading raised."""
    path = tmp_path / "config.yaml"
    path.write_text(yaml, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    return path, str(caught.value)
