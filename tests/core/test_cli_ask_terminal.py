"""``citecast ask`` prints documents' text and titles: a terminal shows them, never acts on them.

Found in a QA pass of the command line: a Markdown file whose heading held ``\\x1b[31m`` turned
the Sources: list red, and an OSC sequence in its text could retitle the terminal; ``citecast
report`` already escaped them for anyone's questions, ``ask`` printed them raw.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.commands.output import terminal_text

HOSTILE_TITLE = "Install \x1b[31mRED\x1b[0m guide"
HOSTILE_TEXT = "To install citecast run the installer on Linux \x1b]0;pwned\x07 \x9b2J \u202eevil."


def test_control_characters_from_a_document_are_shown_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "install.md").write_text(
        f"# {HOSTILE_TITLE}\n\n{HOSTILE_TEXT}\n", encoding="utf-8"
    )
    assert main(["ingest", "docs"]) == 0
    capsys.readouterr()
    assert main(["ask", "How do I install citecast on Linux?"]) == 0
    out = capsys.readouterr().out
    assert "Sources:\n[1] " in out  # the document was found and cited
    for char in "\x1b\x07\x9b\u202e":
        assert char not in out
    assert "Install \\x1b[31mRED\\x1b[0m guide" in out  # shown, so the reader sees it is there


def test_line_breaks_tabs_and_direction_marks_are_kept() -> None:
    text = "שלום\u200f [1].\n\tSources:\r\n"
    assert terminal_text(text) == "שלום\u200f [1].\n\tSources:\\x0d\n"
    assert terminal_text("a\u2066b\u2069\x7f\x00") == "a\\u2066b\\u2069\\x7f\\x00"
