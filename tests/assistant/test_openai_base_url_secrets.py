"""An ``assistant.openai.base_url`` refused at the start is quoted without the credentials it
carries (``user:password@``, ``?code=…``), or, when it came from a ``${NAME}``, named by the
variable instead of quoted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.openai_backend import OpenAIBackend
from bot.config_file import load_settings
from bot.errors import ConfigError

SECRET = "Sup3rS3cretPassw0rd"
BROKEN_URLS = [
    f"https://fn.example.net:80a/api?code={SECRET}",  # a typo in the port
    f"https://user:{SECRET}@[::1/v1",  # a broken IPv6 host
    f"fn.example.net/api?code={SECRET}",  # no scheme
    f"user:{SECRET}@fn.example.net/v1",  # no scheme, with a password
]


def _refusal(path: Path, written: str) -> str:
    path.write_text(
        "assistant:\n  backend: openai\n  openai:\n"
        f"    base_url: {written}\n    api_key: x\n    model: m\n",
        encoding="utf-8",
    )
    settings = load_settings(path)
    with pytest.raises(ConfigError) as caught:
        OpenAIBackend(settings.assistant.openai)
    return str(caught.value)


@pytest.mark.parametrize("url", BROKEN_URLS, ids=["port", "ipv6", "no-scheme", "userinfo"])
def test_a_refused_base_url_in_the_file_is_quoted_without_credentials(
    tmp_path: Path, url: str
) -> None:
    message = _refusal(tmp_path / "config.yaml", f"'{url}'")
    assert message.startswith("assistant.openai.base_url: '")
    assert SECRET not in message
    assert "…" in message  # what was masked shows that something was


@pytest.mark.parametrize("url", BROKEN_URLS, ids=["port", "ipv6", "no-scheme", "userinfo"])
def test_a_refused_base_url_from_a_variable_is_named_not_quoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    monkeypatch.setenv("MODEL_URL", url)
    message = _refusal(tmp_path / "config.yaml", "${MODEL_URL}")
    assert message.startswith("assistant.openai.base_url: the value of ${MODEL_URL} is not")
    assert SECRET not in message
    assert "fn.example.net" not in message
