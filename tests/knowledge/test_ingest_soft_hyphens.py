"""Soft hyphens (U+00AD, HTML ``&shy;``, Word's optional hyphen) and zero-width characters.

A browser shows ``authenti&shy;cation`` as one word; read as a character, the soft hyphen split
it, so the word was never found in an HTML, Markdown or text file (PDFs already dropped it). A
file of zero-width spaces alone was indexed as one invisible chunk.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.knowledge.document import Unreadable
from bot.knowledge.readers import read_document
from tests.assistant.handbook_index import ask, ingested

SENTENCE = "The authentication token expires after one hour."


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "auth.html",
            "<html><body><p>The authenti&shy;cation token expires after one hour.</p>"
            "</body></html>",
        ),
        ("auth.md", "# Tokens\n\nThe authenti\u00adcation token expires after one hour.\n"),
        ("auth.txt", "The authenti\u00adcation token expires after one hour.\n"),
        ("auth.rst", "Tokens\n======\n\nThe authenti\u00adcation token expires after one hour.\n"),
    ],
)
def test_a_word_with_a_soft_hyphen_is_found_by_the_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str
) -> None:
    config = ingested(tmp_path, {name: text})
    answer, sources = ask(config, "When does the authentication token expire?", capsys)
    assert name in sources, answer


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("auth.html", b"<title>Authenti&shy;cation</title><p>The authenti&shy;cation token"),
        ("auth.md", "# Authenti\u00adcation\n\nThe authenti\u00adcation token".encode()),
    ],
)
def test_the_indexed_text_and_names_hold_no_soft_hyphen(name: str, data: bytes) -> None:
    """The quote a citation links with is the word the page shows, no invisible character."""
    doc = read_document(Path(name), data + b" expires after one hour.")
    assert doc.title == "Authentication"
    assert [b.text for b in doc.blocks] == [SENTENCE]
    assert all("\u00ad" not in (b.section or "") for b in doc.blocks)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("zw.md", "\u200b"),
        ("zw.txt", "\u200b\n\u200b \u2060\n"),
        ("zw.html", "\ufeff\u200b\n"),
        ("shy.rst", "\u00ad\n"),
    ],
)
def test_a_file_of_zero_width_characters_is_empty(name: str, text: str) -> None:
    with pytest.raises(Unreadable, match=r"^empty file$"):
        read_document(Path(name), text.encode())


def test_a_block_of_zero_width_characters_is_no_block() -> None:
    doc = read_document(Path("a.md"), "# A\n\n\u200b\n\nThe okapi.\n".encode())
    assert [b.text for b in doc.blocks] == ["The okapi."]
