"""A key that does not line up with its section is named as an indentation problem.

Found walking through the Quickstart: the shipped config.yaml comments its keys out as
``#   port: 8000``; deleting only the ``#`` leaves the key one column off, and the error was
PyYAML's alone: ``expected <block end>, but found '<block mapping start>'``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError

SHIPPED_WEB = (
    "web:\n"
    "  suggested_prompts:\n"
    "    - How do I install citecast on Linux?\n"
    "#   title: citecast\n"
    "   port: 8001\n"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            SHIPPED_WEB,
            "line 5, column 4: expected <block end>, but found '<block mapping start>' "
            "(while parsing a block mapping from line 2, column 3); line 5 is indented to "
            "column 4, where no key above it starts: indent it as the other keys of its section",
        ),
        (
            "web:\n  host: 127.0.0.1\n port: 8001\n",
            "line 3, column 2: expected <block end>, but found '<block mapping start>' "
            "(while parsing a block mapping from line 1, column 1); line 3 is indented to "
            "column 2, where no key above it starts: indent it as the other keys of its section",
        ),
    ],
    ids=["uncommented-key", "key-between-levels"],
)
def test_a_key_off_its_section_s_column_is_called_an_indentation_problem(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(path)
    assert str(raised.value) == f"{path}: not valid YAML: {expected}"


def test_other_yaml_errors_get_no_indentation_advice(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("web:\n  title: Help: internal\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(path)
    assert str(raised.value) == (
        f"{path}: not valid YAML: line 2, column 14: mapping values are not allowed here"
    )
