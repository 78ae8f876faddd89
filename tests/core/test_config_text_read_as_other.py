"""A text setting that YAML read as something else (``title: no`` is false, ``2024-01-01`` a
date, ``12:30:45`` the number 45045) says what YAML read and to quote it, as number settings
already do for ``yes``/``no``: "Input should be a valid string" told the author nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("  title: no\n", "web.title: must be text, but YAML read the value as false"),
        (
            "  title: 2024-01-01\n",
            "web.title: must be text, but YAML read the value as the date 2024-01-01",
        ),
        ("  title: 0x1F\n", "web.title: must be text, but YAML read the value as the number 31"),
        (
            "  subtitle: 12:30:45\n",
            "web.subtitle: must be text, but YAML read the value as the number 45045",
        ),
        (
            "  file_secret: 01234567\n",
            "web.file_secret: must be text, but YAML read the value as the number 342391",
        ),
        (
            "  audience: 5\n",
            "web.audience: must be text or a list of texts, but YAML read the value as the number",
        ),
        ("  title: [a, b]\n", "web.title: must be text, not a list"),
    ],
    ids=["flag", "date", "hex", "base60", "octal", "audience-number", "list"],
)
def test_a_text_setting_yaml_read_otherwise_says_what_it_read(
    tmp_path: Path, line: str, expected: str
) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("web:\n" + line, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {expected}"), message
    if "read the value" in expected:
        assert message.endswith("; put it in quotes")


def test_the_quoted_value_is_taken_as_written(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text('web:\n  title: "no"\n  subtitle: "12:30:45"\n', encoding="utf-8")
    settings = load_settings(path)
    assert (settings.web.title, settings.web.subtitle) == ("no", "12:30:45")
