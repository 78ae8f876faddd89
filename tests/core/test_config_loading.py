"""config.yaml loading: defaults, ${ENV} expansion, and errors that name the key path."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
import yaml

from bot.config_env import expand_env
from bot.config_file import load_settings, parse_settings
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


def test_a_config_that_is_no_regular_file_keeps_paths_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --config /dev/null (the defaults) put the index in /dev/.citecast (CLI QA); a FIFO, as a
    # shell's <(…) gives, is read the same way
    monkeypatch.chdir(tmp_path)
    assert load_settings("/dev/null").index.path == ".citecast/index.db"
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=("index:\n  path: x/index.db\n",))
    writer.start()
    try:
        assert load_settings(fifo).index.path == "x/index.db"
    finally:
        writer.join(timeout=5)


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
        "  outbound: {ca_file: certs/ca.pem}\n"
        "  imap: {ca_file: certs/imap-ca.pem}\n",
        encoding="utf-8",
    )
    settings = load_settings(deploy / "config.yaml")
    assert settings.index.path == str(deploy / "state/index.db")
    products, shop = settings.index.records
    assert products.csv == str(deploy / "data/products.csv")
    assert shop.sqlite == "/var/lib/shop.db"  # absolute: as written
    assert settings.store.path == str(tmp_path / "user" / "citecast.db")
    assert settings.email.outbound.ca_file == str(deploy / "certs/ca.pem")
    assert settings.email.imap.ca_file == str(deploy / "certs/imap-ca.pem")
    assert settings.web.file_roots == [str(deploy / "docs"), "/srv/shared"]
    # a default the file does not set lives beside the file too
    (deploy / "config.yaml").write_text("web:\n  port: 8001\n", encoding="utf-8")
    defaults = load_settings(deploy / "config.yaml")
    assert defaults.index.path == str(deploy / ".citecast/index.db")
    assert defaults.email.outbound.ca_file is None
    assert defaults.email.imap.ca_file is None


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


def _error(tmp_path: Path, text: str) -> str:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as excinfo:
        load_settings(path)
    return str(excinfo.value).removeprefix(f"{path}: ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "web:\n  port: [8000\n",
            "not valid YAML: line 3, column 1: expected ',' or ']', but got '<stream end>' "
            "(while parsing a flow sequence from line 2, column 9)",
        ),
        (
            "web:\n\tport: 8000\n",
            "not valid YAML: line 2, column 1: found character '\\t' that cannot start any "
            "token (while scanning for the next token); use spaces there, not a tab (YAML "
            "indents with spaces only)",
        ),
        (
            "web:\n  title: Payroll: internal\n",
            "not valid YAML: line 2, column 17: mapping values are not allowed here",
        ),
        (
            "web:\n  port: " + "9" * 5000 + "\n",
            "not valid YAML: a number has more than 4300 digits",
        ),
        ("web: " + "[" * 2000 + "]" * 2000 + "\n", "not valid YAML: nested too deeply"),
    ],
    ids=["unclosed", "tab", "colon", "long-number", "nested"],
)
def test_broken_yaml_is_one_line_with_where(tmp_path: Path, text: str, expected: str) -> None:
    assert _error(tmp_path, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("web:\n  port: 8001\n  port: 8002\n", "line 3, column 3: key 'port' written twice"),
        # a second section of the same name would silently replace the whole first one
        (
            "web:\n  title: Help desk\nstore:\n  path: s.db\nweb:\n  port: 9000\n",
            "line 5, column 1: key 'web' written twice (first on line 1)",
        ),
    ],
    ids=["key", "section"],
)
def test_a_key_written_twice_is_refused_not_overwritten(
    tmp_path: Path, text: str, expected: str
) -> None:
    assert _error(tmp_path, text).startswith(f"not valid YAML: {expected}")


def test_a_merge_key_may_still_be_overridden(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(
        "slack:\n  audience_by_channel:\n    C1: &staff [staff]\n    C2: *staff\n"
        "web: {<<: {port: 8001, host: 0.0.0.0}, port: 8002}\n",
        encoding="utf-8",
    )
    settings = load_settings(path)
    assert (settings.web.host, settings.web.port) == ("0.0.0.0", 8002)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("web:\n  prot: 80\n", "web.prot: unknown key (did you mean port?)"),
        ("webb:\n  port: 80\n", "webb: unknown key (did you mean web?)"),
        (
            "index:\n  records:\n    - name: a\n      colums: [a]\n",
            "index.records.0.colums: unknown key (did you mean columns?)",
        ),
        ("assistant:\n  openai:\n    zzz: 1\n", "assistant.openai.zzz: unknown key"),
        ("web: hello\n", "web: must be a mapping of keys (key: value lines), not str"),
        (
            "web:\n  public_base_url: ask.example.com\n",
            "web.public_base_url: must be an http:// or https:// URL with a host, "
            "not 'ask.example.com'",
        ),
        (
            "index:\n  path: x.db\nstore:\n  path: ./x.db\n",
            "store.path: the same file as index.path (./x.db); the store and the knowledge "
            "index need a file each",
        ),
    ],
    ids=["typo", "section-typo", "record-typo", "unknown", "not-a-section", "url", "same-db"],
)
def test_validation_errors_say_what_is_wrong_in_config_words(
    tmp_path: Path, text: str, expected: str
) -> None:
    assert _error(tmp_path, text) == expected


def test_an_unset_variable_is_named_when_its_value_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITECAST_TEST_PORT", raising=False)
    assert _error(tmp_path, "web:\n  port: ${CITECAST_TEST_PORT}\n") == (
        "web.port: Input should be a valid integer, unable to parse string as an integer "
        "(${CITECAST_TEST_PORT} is not set)"
    )
    monkeypatch.setenv("CITECAST_TEST_PORT", "80x")  # set but wrong: named as where it came from
    assert _error(tmp_path, "web:\n  port: ${CITECAST_TEST_PORT}\n").endswith(
        "an integer (from ${CITECAST_TEST_PORT})"
    )


def test_a_blank_public_base_url_means_none(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("web:\n  public_base_url: ${CITECAST_UNSET_URL:-}\n", encoding="utf-8")
    assert load_settings(path).web.public_base_url is None


def test_an_empty_citecast_config_variable_counts_as_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `export CITECAST_CONFIG=` used to read the folder "." and fail with "Is a directory"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECAST_CONFIG", "")
    Path("config.yaml").write_text("web:\n  port: 8123\n", encoding="utf-8")
    assert load_settings().web.port == 8123


@pytest.mark.parametrize("via", ["variable", "option"])
def test_a_config_path_starting_with_a_tilde_is_in_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, via: str
) -> None:
    # CITECAST_CONFIG="~/citecast.yaml" (quoted) and --config=~/citecast.yaml reach us with "~"
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "citecast.yaml").write_text("web:\n  port: 8124\n", encoding="utf-8")
    if via == "variable":
        monkeypatch.setenv("CITECAST_CONFIG", "~/citecast.yaml")
        assert load_settings().web.port == 8124
    else:
        monkeypatch.delenv("CITECAST_CONFIG", raising=False)
        assert load_settings("~/citecast.yaml").web.port == 8124


@pytest.mark.parametrize(
    ("path", "expected"),
    [("", "--config: empty path; name a config file"), (".", ".: is a folder")],
)
def test_a_config_path_that_names_no_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as excinfo:
        load_settings(path)
    assert str(excinfo.value).startswith(expected)
