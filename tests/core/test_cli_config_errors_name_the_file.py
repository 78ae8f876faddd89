"""A setting refused after the config file was read starts with the file's name too.

Found by the upgrade QA pass: `c2.yaml: email.allowed_domains: …` (refused while reading) but
`email.address: required when email is enabled (…)` and `discourse.api_key: starts or ends
with a space…` (refused by the connectors' start-up checks) without it. With several config
files about (an upgrade's old and new one), the line must say which one to open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import main
from bot.commands.config_named import with_origin
from bot.errors import ConfigError

DISCOURSE = {
    "enabled": True,
    "base_url": "https://forum.example.com",
    "api_key": "key-from-a-file\n",
    "webhook_secret": "s",
    "categories": [5],
}


def refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], config: dict[str, Any]
) -> str:
    path = tmp_path / "c2.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    assert main(["--config", str(path), *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, (out, err)
    return err.removeprefix(f"citecast {argv[0]}: {path}: ")


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (
            {"email": {"enabled": True}},
            "email.address: required when email is enabled (the bot's own address, such as "
            "help@docs.example.com)\n",
        ),
        (
            {"discourse": DISCOURSE},
            "discourse.api_key: starts or ends with a space or a line break (a secret file's "
            "last newline?); paste the key again, as Admin → API → Keys shows it\n",
        ),
        (
            {"discourse": {"enabled": True}},
            "discourse.base_url, discourse.api_key, discourse.webhook_secret: required when "
            "discourse is enabled",
        ),
    ],
    ids=["email-address", "discourse-api-key", "discourse-required"],
)
def test_serve_names_the_file_of_a_setting_its_channels_refuse(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    config: dict[str, Any],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    config = {"store": {"path": str(tmp_path / "store.db")}, **config}
    assert refusal(tmp_path, capsys, ["serve", "--port", "0"], config).startswith(message)


def test_ask_names_the_file_of_a_missing_model_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "a.md").write_text("# Retries\n\nWe retry 5 times.\n", encoding="utf-8")
    assert main(["ingest", "kb"]) == 0
    capsys.readouterr()

    err = refusal(tmp_path, capsys, ["ask", "Retries?"], {"assistant": {"backend": "openai"}})

    assert err.startswith("assistant.openai.api_key: not set (set it to ${OPENAI_API_KEY})"), err


@pytest.mark.parametrize(
    "message",
    [
        "--port: 70000 is not a TCP port",  # an option, not a setting of the file
        "c2.yaml: web.port: Input should be less than or equal to 65535",  # named already
        "config: not a setting",  # a word before a colon that is no section
        "/srv/.citecast/file_secret: the stored file-link secret is too short; delete the file",
    ],
)
def test_other_errors_are_left_as_they_are(tmp_path: Path, message: str) -> None:
    path = tmp_path / "c2.yaml"
    path.write_text("web:\n  port: 8000\n", encoding="utf-8")
    error = ConfigError(message.replace("c2.yaml", str(path)))

    assert with_origin(error, str(path)) is error


def test_a_file_named_like_a_section_is_not_named_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("web.yaml").write_text("web:\n  port: 8000\n", encoding="utf-8")

    named = with_origin(ConfigError("web.port: in use"), "web.yaml")
    again = with_origin(named, "web.yaml")

    assert str(again) == "web.yaml: web.port: in use"


def test_without_a_config_file_nothing_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults, from no file
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    error = ConfigError("email.address: required when email is enabled")

    assert with_origin(error, None) is error
