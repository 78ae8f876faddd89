"""``assistant.language``: a BCP 47 tag (shape only) or blank, refused at start otherwise with
one line, the POSIX spelling ``pt_BR`` hinted as ``pt-BR``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError


@pytest.mark.parametrize(
    ("written", "kept"),
    [
        ("de", "de"),
        (" pt-BR ", "pt-BR"),
        ("zh-Hant-TW", "zh-Hant-TW"),
        ("", ""),
        ("x-klingon", "x-klingon"),
    ],
)
def test_language_tags_are_kept(tmp_path: Path, written: str, kept: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f'assistant:\n  language: "{written}"\n', encoding="utf-8")
    assert load_settings(config).assistant.language == kept


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("pt_BR", "(did you mean pt-BR?)"),
        ("German", "got 'German'"),
        ('de"><script>', "expected a language tag such as en, de or pt-BR"),
        ("de-", "got 'de-'"),
    ],
)
def test_anything_else_stops_with_one_line(tmp_path: Path, written: str, said: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"assistant:\n  language: '{written}'\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(config)
    message = str(caught.value)
    assert "assistant.language" in message and said in message, message
    assert "\n" not in message
