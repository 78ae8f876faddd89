"""A config of a few lines of nested aliases (each level nine copies of the last) expands to
millions of values: it took 15 s and 170 MB at seven levels before saying ``a: unknown key``.
It is refused at once, in one line; a config that shares a section by alias still loads."""

from __future__ import annotations

import time
from pathlib import Path

from bot.config_yaml import MAX_VALUES, load_yaml
from tests.core.config_refusals import refused


def _nested_aliases(levels: int) -> str:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    previous = "a"
    for level in range(1, levels):
        name = f"l{level}"
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
        previous = name
    return "\n".join(lines) + "\n"


def test_aliases_that_expand_past_the_bound_are_refused_at_once(tmp_path: Path) -> None:
    started = time.process_time()  # CPU time: a busy shared machine barely moves it
    path, message = refused(tmp_path, _nested_aliases(6))  # 9**6 values
    assert time.process_time() - started < 1.0
    assert message == (
        f"{path}: its aliases (*name) expand to over {MAX_VALUES:,} values; is it the config "
        "file? write the values out, or use fewer nested aliases"
    )


def test_a_section_shared_by_alias_still_loads() -> None:
    text = "defaults: &d {a: 1, b: [x, y]}\none: *d\ntwo: *d\nthree: {<<: *d, b: [z]}\n"
    data = load_yaml(text)
    assert data["one"] == {"a": 1, "b": ["x", "y"]}
    assert data["three"] == {"a": 1, "b": ["z"]}


def test_an_empty_document_is_none() -> None:
    assert load_yaml("# nothing yet\n") is None
