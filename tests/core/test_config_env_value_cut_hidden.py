"""A check that shortens a long value it quotes (``template[:77] + "..."``) must not show the
start of a ``${NAME}``'s value either.

Found by the security review: an ``index.url_templates`` value over 80 characters from
``${DOCS_URL}`` was refused with its first 77 characters quoted, and the swap of a variable's
value for its ``${NAME}`` looked only for the whole value: the user and password of
``https://deploy:PASSWORD@docs.example.com/...`` were printed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.config_env import hide_env_values
from bot.config_file import load_settings
from bot.errors import ConfigError
from tests.cpu_time import best_cpu_seconds

SECRET = "Sup3rS3cretPassw0rd"
LONG_URL = f"https://deploy:{SECRET}@docs.example.com/handbook/current/articles/{{path}} x"


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("${DOCS_URL}", "'${DOCS_URL}'"),
        ("${DOCS_URL}/more", "'${DOCS_URL}/more'"),
    ],
    ids=["whole", "start"],
)
def test_a_long_url_template_from_the_environment_is_not_quoted_in_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, shown: str
) -> None:
    monkeypatch.setenv("DOCS_URL", LONG_URL)
    path = tmp_path / "config.yaml"
    path.write_text(f'index:\n  url_templates:\n    "*.md": "{written}"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    message = str(caught.value)
    assert SECRET not in message
    assert "deploy" not in message
    assert f"must not contain spaces or control characters (write %20): {shown}" in message
    assert message.endswith("(from ${DOCS_URL})")


def test_a_long_template_written_in_the_file_is_still_quoted_short(tmp_path: Path) -> None:
    template = "https://docs.example.com/" + "a" * 80 + "/{path} x"
    path = tmp_path / "config.yaml"
    path.write_text(f'index:\n  url_templates:\n    "*.md": "{template}"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert repr(template[:77] + "...") in str(caught.value)


ENV = {"TOKEN": "s3cr3t\\tok3n'plus-more-text-here"}
DATA = {"key": "${TOKEN}"}


@pytest.mark.parametrize(
    "cut",
    [
        ENV["TOKEN"][:10] + "...",  # as written
        repr(ENV["TOKEN"][:12] + "..."),  # as repr quotes it: the backslash doubled
    ],
)
def test_any_cut_start_of_eight_characters_or_more_is_hidden(cut: str) -> None:
    message = hide_env_values(f"key: not {cut} here", DATA, ("key",), ENV)
    assert "s3cr3t" not in message
    assert "${TOKEN}" in message


def test_a_start_under_eight_characters_and_other_dots_stay() -> None:
    message = "key: not s3cr3t... nor 'wait...' here"
    assert hide_env_values(message, DATA, ("key",), ENV) == message


@given(
    value=st.text(alphabet="ab'\\", min_size=9, max_size=40),
    cut=st.integers(min_value=8, max_value=40),
    quoted=st.booleans(),
)
def test_the_longest_cut_start_is_hidden_whatever_the_value_repeats(
    value: str, cut: int, quoted: bool
) -> None:
    start = value[: min(cut, len(value) - 1)] + "..."
    shown = repr(start) if quoted else start
    message = hide_env_values(f"key: not {shown} here", DATA, ("key",), {"TOKEN": value})
    assert message == f"key: not {repr('${TOKEN}') if quoted else '${TOKEN}'} here"


def test_a_long_value_quoted_nearly_whole_is_hidden_at_once() -> None:
    def hidden(size: int) -> str:
        value = "a" * size + "Tr0ub4dor"
        quoted = f"key: not {value[:-1]}... here"
        return hide_env_values(quoted, DATA, ("key",), {"TOKEN": value})

    assert hidden(200_000) == "key: not ${TOKEN} here"
    # eight times the value, about eight times the CPU time (a search from each cut length in
    # turn was quadratic, some 64 times); CPU time, so a busy machine barely moves the ratio
    ratio = best_cpu_seconds(lambda: hidden(200_000)) / best_cpu_seconds(lambda: hidden(25_000))
    assert ratio < 24
