"""Plain text as printed: a form feed (a page break) ends a paragraph, CRLF lines and tabs are
read as written."""

from __future__ import annotations

from pathlib import Path

from bot.knowledge.readers import read_document


def test_a_form_feed_ends_a_paragraph(tmp_path: Path) -> None:
    path = tmp_path / "report.txt"
    data = (
        b"Line one of the notes.\r\nStill paragraph one.\r\n\f"
        b"Page two starts here.\fPage three\twith a tab.\r\n"
    )
    document = read_document(path, data)
    assert [block.text for block in document.blocks] == [
        "Line one of the notes.\nStill paragraph one.",
        "Page two starts here.",
        "Page three\twith a tab.",
    ]
