"""A ``$`` form of the shell that citecast does not expand is refused, never kept as text.

Found in a README-as-reference QA pass: ``file_secret: $CITECAST_FILE_SECRET`` (and
``${NAME-default}``, ``${ NAME }``) were kept as the literal words, so every ``/files/`` link
was signed with a key anyone could guess from the README. Only ``${NAME}`` and
``${NAME:-default}`` are read from the environment; ``$$`` is a ``$`` of the value itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError

FIX = "write ${NAME} or ${NAME:-default} (or $$ for a $ of its own)"


def _config(tmp_path: Path, yaml_text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(yaml_text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "written",
    ["$CITECAST_FILE_SECRET", "${SECRET-fallback}", "${ SECRET }", "${SECRET", "pre${}post"],
)
def test_an_unsupported_form_is_refused_in_one_line_naming_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str
) -> None:
    monkeypatch.setenv("CITECAST_FILE_SECRET", "s3cret-value")
    monkeypatch.setenv("SECRET", "s3cret-value")
    config = _config(tmp_path, f"web:\n  file_secret: '{written}'\n")
    with pytest.raises(ConfigError) as refused:
        load_settings(config)
    message = str(refused.value)
    form = written.removeprefix("pre").removesuffix("post")
    assert message == f"{config}: web.file_secret: {form} is not read from the environment; {FIX}"
    assert "s3cret-value" not in message


def test_a_form_inside_a_list_names_its_entry(tmp_path: Path) -> None:
    config = _config(tmp_path, "web:\n  allowed_hosts: [a.example.com, $HOST]\n")
    with pytest.raises(ConfigError, match=r"web\.allowed_hosts\.1: \$HOST is not read"):
        load_settings(config)


def test_a_dollar_before_no_name_is_text_and_two_are_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET", "from-env")
    config = _config(
        tmp_path,
        "web:\n  title: 'Plans from $5, or $ 9: $'\n"
        "  file_secret: 'pa$$word-${SECRET}-$${SECRET}'\n",
    )
    settings = load_settings(config)
    assert settings.web.title == "Plans from $5, or $ 9: $"
    assert settings.web.file_secret == "pa$word-from-env-${SECRET}"


def test_the_supported_forms_still_read_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET", "from-env")
    monkeypatch.delenv("UNSET_ONE", raising=False)
    config = _config(tmp_path, "web:\n  file_secret: ${SECRET}\n  title: ${UNSET_ONE:-Ask}\n")
    settings = load_settings(config)
    assert (settings.web.file_secret, settings.web.title) == ("from-env", "Ask")


def test_a_dollar_word_that_reads_like_part_of_a_password_is_not_shown(tmp_path: Path) -> None:
    # refused all the same (it would not be what was meant), but the error line, which may end
    # up in a log, does not repeat what may be a piece of a password written into the file
    config = _config(tmp_path, "email:\n  imap:\n    password: 'hunter$Tr0ub4dor'\n")
    with pytest.raises(ConfigError) as refused:
        load_settings(config)
    assert str(refused.value) == (
        f"{config}: email.imap.password: a $ before a name is not read from the environment; {FIX}"
    )
