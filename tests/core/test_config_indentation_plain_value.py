"""A key one column deeper than its section, under a key with a plain value, is called an
indentation problem too.

Found by a QA pass: YAML reads such a line as more of the value above it, so PyYAML's only
words were ``mapping values are not allowed here`` at the would-be key's colon, where README
promises the line "is called an indentation problem" (as it already was under a list or a
section header).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]

HINT = "where no key above it starts: indent it as the other keys of its section"


def _refusal(path: Path, text: str) -> str:
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(ConfigError) as raised:
        load_settings(path)
    return str(raised.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "web:\n  title: x\n   port: 8000\n",
            "line 3, column 8: mapping values are not allowed here; "
            f"line 3 is indented to column 4, {HINT}",
        ),
        (
            "web:\n  title: x\n\n      port: 8000\n",
            "line 4, column 11: mapping values are not allowed here; "
            f"line 4 is indented to column 7, {HINT}",
        ),
        (
            "web:\r\n  title: x\r\n   port: 8000\r\n",
            "line 3, column 8: mapping values are not allowed here; "
            f"line 3 is indented to column 4, {HINT}",
        ),
    ],
    ids=["one-column-deeper", "past-a-blank-line", "windows-line-ends"],
)
def test_a_deeper_key_under_a_plain_value_is_an_indentation_problem(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = tmp_path / "config.yaml"
    assert _refusal(path, text) == f"{path}: not valid YAML: {expected}"


@pytest.mark.parametrize(
    ("commented", "column"),
    [("  # chunk_chars: 1200", 4), ("      # audience: [public]", 8)],
    ids=["index-key", "record-table-key"],
)
def test_the_sample_config_with_only_a_hash_deleted_names_the_indentation(
    tmp_path: Path, commented: str, column: int
) -> None:
    sample = (ROOT / "config.yaml").read_text(encoding="utf-8").split("\n")
    at = next(number for number, text in enumerate(sample) if text.startswith(commented))
    sample[at] = sample[at].replace("#", "", 1)  # the key is now one column deeper
    message = _refusal(tmp_path / "config.yaml", "\n".join(sample))
    assert message.endswith(
        f"mapping values are not allowed here; line {at + 1} is indented to column {column}, "
        + HINT
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "web:\n  title: Help: internal\n",
            "line 2, column 14: mapping values are not allowed here",
        ),
        (
            "web:\n  title: x\n    more of the title\n    port: 8000\n",
            "line 4, column 9: mapping values are not allowed here",
        ),
    ],
    ids=["second-colon-on-a-key-line", "in-line-with-the-line-above"],
)
def test_a_colon_that_is_no_misplaced_key_gets_no_indentation_advice(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = tmp_path / "config.yaml"
    assert _refusal(path, text) == f"{path}: not valid YAML: {expected}"
