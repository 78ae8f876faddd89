"""Aliases of a long string are counted by their text, not only as values.

Found by the security review: the alias bound counted values, so one 500 KB string holding a
``${NAME}`` aliased 99,000 times (an 896 KB file of 99,001 values) passed it, and ``${NAME}``
expansion then copied the string out per alias (about 50 GB): a MemoryError traceback after
20 s. Here 1,000 aliases of a 200 KB string (200 MB copied) are refused before expansion.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.config_yaml import MAX_CHARACTERS, TooManyValuesError, load_yaml
from tests.core.config_refusals import refused


def test_aliases_of_a_large_string_are_refused_before_they_are_expanded(tmp_path: Path) -> None:
    big = "x" * 200_000
    aliases = ", ".join(["*s"] * 1000)
    started = time.process_time()  # CPU time: a busy shared machine barely moves it
    path, message = refused(
        tmp_path, f'web:\n  title: &s "${{HOME}}{big}"\n  audience: [{aliases}]\n'
    )
    assert time.process_time() - started < 5.0
    assert message == (
        f"{path}: its aliases (*name) expand to over {MAX_CHARACTERS:,} characters; "
        "is it the config file? use fewer aliases of long text"
    )


def test_aliases_of_text_under_the_bound_still_load() -> None:
    text = 'a: &s "' + "y" * 100_000 + '"\nb: [' + ", ".join(["*s"] * 90) + "]\n"
    data = load_yaml(text)
    assert len(data["b"]) == 90 and data["b"][0] == data["a"]


def test_a_long_string_in_an_aliased_section_counts_once_per_use() -> None:
    section = 'defaults: &d {t: "' + "z" * 600_000 + '"}\n'
    uses = "".join(f"s{n}: *d\n" for n in range(20))  # 21 copies of 600 KB: over 10 MB
    with pytest.raises(TooManyValuesError, match="characters"):
        load_yaml(section + uses)
