"""README › Configuration: a refused value that came from a ``${NAME}`` says so, and "the
variable's value is never printed". Each setting below is refused with a message that quotes
the value it got; when that value came from the environment, the line must not show it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.connectors.email_check import check_settings
from bot.errors import ConfigError
from tests.core.config_refusals import refused

VARIABLE = "CITECAST_TEST_ENV_VALUE"
VALUE = "Tr0ub4dor, not for logs"


@pytest.mark.parametrize(
    "yaml",
    [
        "web:\n  public_base_url: ${CITECAST_TEST_ENV_VALUE}\n",
        "web:\n  public_base_url: https://${CITECAST_TEST_ENV_VALUE}/docs\n",
        "assistant:\n  language: ${CITECAST_TEST_ENV_VALUE}\n",
        "store:\n  retention:\n    sent_days: ${CITECAST_TEST_ENV_VALUE}\n",
        'web:\n  cors_origins: ["${CITECAST_TEST_ENV_VALUE}"]\n',
        'web:\n  allowed_hosts: ["${CITECAST_TEST_ENV_VALUE}"]\n',
        'web:\n  audience: ["${CITECAST_TEST_ENV_VALUE}"]\n',
        'slack:\n  public_audience: ["${CITECAST_TEST_ENV_VALUE}"]\n',
        'index:\n  url_templates:\n    "*.md": "${CITECAST_TEST_ENV_VALUE}"\n',
    ],
    ids=[
        "public_base_url",
        "public_base_url-part",
        "language",
        "retention",
        "cors_origins",
        "allowed_hosts",
        "audience",
        "public_audience",
        "url_templates",
    ],
)
def test_a_refused_value_from_the_environment_is_not_quoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, yaml: str
) -> None:
    monkeypatch.setenv(VARIABLE, VALUE)
    _, message = refused(tmp_path, yaml)
    assert f"${{{VARIABLE}}}" in message
    assert "Tr0ub4dor" not in message


def test_a_word_of_the_message_is_not_taken_for_a_short_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VARIABLE, "a")
    path = tmp_path / "config.yaml"
    path.write_text('web:\n  cors_origins: ["${CITECAST_TEST_ENV_VALUE}"]\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    message = str(caught.value)
    assert "'${CITECAST_TEST_ENV_VALUE}' is not an origin" in message
    assert "'a'" not in message


def test_an_email_address_from_the_environment_is_named_not_quoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VARIABLE, "xapp-Tr0ub4dor-value")
    path = tmp_path / "config.yaml"
    path.write_text(
        "email:\n  enabled: true\n  address: ${CITECAST_TEST_ENV_VALUE}\n", encoding="utf-8"
    )
    with pytest.raises(ConfigError) as caught:
        check_settings(load_settings(path).email)
    message = str(caught.value)
    assert message == "email.address: not a valid address: the value of ${CITECAST_TEST_ENV_VALUE}"
