"""config.yaml loading: defaults, ${ENV} expansion, and errors that name the key path."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.config_file import expand_env, load_settings, parse_settings
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
        ("web:\n  title: ''\n", "web.title"),
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


def test_relative_paths_are_taken_from_the_config_files_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deploy = tmp_path / "srv" / "citecast"
    deploy.mkdir(parents=True)
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    (deploy / "config.yaml").write_text(
        "index:\n"
        "  path: state/index.db\n"
        "  records:\n"
        "    - {name: products, csv: data/products.csv}\n"
        "    - {name: shop, sqlite: /var/lib/shop.db, table: items}\n"
        "store:\n"
        "  path: ~/citecast.db\n"
        "web:\n"
        "  file_roots: [docs, /srv/shared]\n"
        "email:\n"
        "  outbound: {ca_file: certs/ca.pem}\n",
        encoding="utf-8",
    )
    settings = load_settings(deploy / "config.yaml")
    assert settings.index.path == str(deploy / "state/index.db")
    products, shop = settings.index.records
    assert products.csv == str(deploy / "data/products.csv")
    assert shop.sqlite == "/var/lib/shop.db"  # absolute: as written
    assert settings.store.path == str(tmp_path / "user" / "citecast.db")
    assert settings.email.outbound.ca_file == str(deploy / "certs/ca.pem")
    assert settings.web.file_roots == [str(deploy / "docs"), "/srv/shared"]
    # a default the file does not set lives beside the file too
    (deploy / "config.yaml").write_text("web:\n  port: 8001\n", encoding="utf-8")
    defaults = load_settings(deploy / "config.yaml")
    assert defaults.index.path == str(deploy / ".citecast/index.db")
    assert defaults.email.outbound.ca_file is None


def test_a_config_in_the_working_directory_keeps_paths_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    Path("config.yaml").write_text("store:\n  path: ':memory:'\n", encoding="utf-8")
    settings = load_settings()
    assert settings.index.path == ".citecast/index.db"
    assert settings.store.path == ":memory:"


@pytest.mark.parametrize(
    ("capabilities", "expected"),
    [
        ({"web": {"max_files": -1}}, "capabilities.web.max_files: must be a non-negative integer"),
        ({"slack": {"bogus": 1}}, "capabilities.slack.bogus: unknown capability"),
        ({"email": {"markup": "rtf"}}, "capabilities.email.markup: must be html|mrkdwn|"),
        ({"irc": {}}, "capabilities.irc: unknown channel (channels: web, slack, discord, "),
    ],
)
def test_capabilities_are_checked_when_the_config_is_loaded(
    tmp_path: Path, capabilities: dict[str, object], expected: str
) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({"capabilities": capabilities}), encoding="utf-8")
    with pytest.raises(ConfigError) as excinfo:
        load_settings(path)
    assert str(excinfo.value).startswith(f"{path}: {expected}")
