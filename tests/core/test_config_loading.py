"""config.yaml loading: defaults, ${ENV} expansion, and errors that name the key path."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import expand_env, load_settings, parse_settings
from bot.errors import ConfigError


def test_missing_default_file_gives_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    settings = load_settings()
    assert settings.web.port == 8000
    assert settings.assistant.backend == "extractive"
    assert settings.web.audience == ["public"]


def test_explicit_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_settings(tmp_path / "nope.yaml")


def test_env_expansion_with_default() -> None:
    env = {"TOKEN": "xoxb-1"}
    assert expand_env({"a": ["${TOKEN}", "${MISSING:-fallback}", "${MISSING}"]}, env) == {
        "a": ["xoxb-1", "fallback", ""]
    }


def test_secret_is_read_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-secret")
    path = tmp_path / "config.yaml"
    path.write_text("slack:\n  enabled: true\n  bot_token: ${SLACK_BOT_TOKEN}\n", encoding="utf-8")
    settings = load_settings(path)
    assert settings.slack.enabled is True
    assert settings.slack.bot_token == "xoxb-secret"


@pytest.mark.parametrize(
    ("yaml_text", "expected"),
    [
        ("web:\n  port: 70000\n", "web.port"),
        ("web:\n  prot: 80\n", "web.prot"),
        ("assistant:\n  backend: magic\n", "assistant.backend"),
        ("index:\n  records:\n    - csv: a.csv\n", "index.records.0.name"),
        ("- just\n- a list\n", "top level"),
    ],
)
def test_invalid_config_names_the_key_path(tmp_path: Path, yaml_text: str, expected: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(yaml_text, encoding="utf-8")
    with pytest.raises(ConfigError) as excinfo:
        load_settings(path)
    assert expected in str(excinfo.value)
    assert str(path) in str(excinfo.value)


def test_broken_yaml_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("web: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_settings(path)


def test_settings_are_immutable() -> None:
    settings = parse_settings({})
    with pytest.raises(Exception, match="frozen"):
        setattr(settings.web, "port", 1)  # noqa: B010 - assignment must fail at runtime
