"""``citecast ask`` names each source on one line: a line break or a tab in a file name is
shown escaped, as escape sequences and bidi overrides already are."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.assistant.handbook_index import ask, ingested

TEXT = "# Forklifts\n\nForklift licences are renewed every three years by the safety office.\n"


@pytest.mark.parametrize(
    ("name", "shown"), [("new\nline.md", "new\\nline.md"), ("tab\tname.md", "tab\\tname.md")]
)
def test_a_line_break_or_tab_in_a_file_name_is_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, shown: str
) -> None:
    config = ingested(tmp_path, {name: TEXT})
    answer, sources = ask(config, "How often are forklift licences renewed?", capsys)
    assert "[1]" in answer
    assert len(sources.splitlines()) == 1
    assert sources.startswith("[1] Forklifts — ") and sources.endswith(f"/docs/{shown}")
