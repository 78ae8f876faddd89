"""Blank sections and keys, and misspelt required keys, read as a person wrote them.

Found in a QA pass of the configuration: a section whose keys are all commented out (``web:``
alone, which YAML reads as null) stopped every command with "must be a mapping of keys ...,
not NoneType"; ``port:`` left blank said "Input should be a valid integer"; and a misspelt
required key (``nmae:``) was reported as "name: Field required", without the suggestion an
unknown key gets.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError


def load(tmp_path: Path, text: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(text, encoding="utf-8")
    load_settings(config)


def test_a_section_with_every_key_commented_out_is_its_defaults(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        "web:\n  # port: 9000\nassistant:\n  openai:\n    # model: gpt-4o\n", encoding="utf-8"
    )
    settings = load_settings(config)
    assert settings.web.port == 8000
    assert settings.assistant.openai.model == "gpt-4o-mini"


@pytest.mark.parametrize(
    ("text", "where"),
    [("web:\n  port:\n", "web.port"), ("slack:\n  enabled:\n", "slack.enabled")],
    ids=["number", "flag"],
)
def test_a_blank_value_is_called_blank(tmp_path: Path, text: str, where: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load(tmp_path, text)
    assert str(raised.value) == (
        f"{tmp_path / 'config.yaml'}: {where}: "
        "is blank; give it a value, or leave the key out for the default"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "index:\n  records:\n    - nmae: plans\n      csv: plans.csv\n",
            "index.records.0.nmae: unknown key (did you mean name?)",
        ),
        (
            "index:\n  audience_rules:\n    - globb: 'hr/*'\n      audience: [hr]\n",
            "index.audience_rules.0.globb: unknown key (did you mean glob?)",
        ),
    ],
    ids=["record-name", "rule-glob"],
)
def test_a_misspelt_required_key_is_named_with_its_suggestion(
    tmp_path: Path, text: str, reason: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        load(tmp_path, text)
    assert str(raised.value) == f"{tmp_path / 'config.yaml'}: {reason}"


def test_a_missing_required_key_is_still_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"index\.records\.0\.name: Field required"):
        load(tmp_path, "index:\n  records:\n    - csv: plans.csv\n")
