"""A mistyped choice in config.yaml gets the "did you mean" hint a misspelt key gets.

``assistant.backend: openia`` said only "Input should be 'extractive' or 'openai'", and
the reader had to spot the swapped letters; the closest choice is now named, as the closest
key is for ``web.prot``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings, parse_settings
from bot.errors import ConfigError


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"assistant": {"backend": "openia"}},
            "assistant.backend: Input should be 'extractive' or 'openai' (did you mean openai?)",
        ),
        (
            {"assistant": {"backend": "OpenAI"}},  # letter case aside
            "assistant.backend: Input should be 'extractive' or 'openai' (did you mean openai?)",
        ),
        (
            {"grounding": {"policy": "anotate"}},
            "grounding.policy: Input should be 'annotate', 'drop' or 'off' "
            "(did you mean annotate?)",
        ),
        (
            {"slack": {"mode": "sockets"}},  # the channels' sections get it too
            "slack.mode: Input should be 'http' or 'socket' (did you mean socket?)",
        ),
    ],
)
def test_a_mistyped_choice_names_the_closest_one(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_settings(data)
    assert str(caught.value) == f"config.yaml: {message}"


@pytest.mark.parametrize("value", ["zzzzzz", 3])
def test_a_value_like_no_choice_gets_no_guess(value: object) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_settings({"assistant": {"backend": value}})
    assert str(caught.value) == (
        "config.yaml: assistant.backend: Input should be 'extractive' or 'openai'"
    )


def test_the_hint_comes_before_where_the_value_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BACKEND", "openia")
    path = tmp_path / "config.yaml"
    path.write_text("assistant:\n  backend: ${BACKEND}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert str(caught.value).endswith(
        "assistant.backend: Input should be 'extractive' or 'openai' (did you mean openai?) "
        "(from ${BACKEND})"
    )
