"""Text that is not plain UTF-8: byte-order marks, HTML charsets, and where a bad byte is."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Unreadable
from bot.knowledge.readers import read_document

MARKDOWN = "# Wombat care\n\nFeed the wombat at dawn. Café crème.\n"


@pytest.mark.parametrize(
    "data",
    [
        MARKDOWN.encode("utf-16"),  # Windows Notepad's "Unicode", PowerShell's `>`
        codecs.BOM_UTF16_BE + MARKDOWN.encode("utf-16-be"),
        MARKDOWN.encode("utf-32"),
        codecs.BOM_UTF8 + MARKDOWN.encode("utf-8"),
    ],
    ids=["utf-16-le", "utf-16-be", "utf-32", "utf-8-bom"],
)
def test_text_with_a_byte_order_mark_is_read_in_its_encoding(data: bytes) -> None:
    document = read_document(Path("care.md"), data)
    assert document.title == "Wombat care"
    assert [b.text for b in document.blocks] == ["Feed the wombat at dawn. Café crème."]


def test_a_utf16_file_of_spaces_is_empty() -> None:
    with pytest.raises(Unreadable, match=r"^empty file$"):
        read_document(Path("blank.txt"), " \r\n\t\r\n".encode("utf-16"))


def test_a_bad_byte_names_its_line() -> None:
    data = "line one\nline two\nthe caf\u00e9 line\n".encode("latin-1")
    with pytest.raises(Unreadable) as caught:
        read_document(Path("notes.md"), data)
    assert str(caught.value) == "not UTF-8 text (line 3); save it as UTF-8"


def _page(head: str, body: str) -> str:
    return f"<html><head>{head}<title>Ferrets</title></head><body><p>{body}</p></body></html>"


@pytest.mark.parametrize(
    ("head", "charset"),
    [
        # Word's "Save as Web Page"
        ('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', "cp1252"),
        # browsers read a latin-1 label as windows-1252, curly quotes included
        ('<meta charset="ISO-8859-1">', "cp1252"),
        ("<meta charset=shift_jis>", "shift_jis"),
    ],
)
def test_html_in_its_declared_charset_is_read_as_a_browser_reads_it(
    head: str, charset: str
) -> None:
    body = "“フェレット”の飼い方" if charset == "shift_jis" else "“Ferret” café — naïve"
    document = read_document(Path("ferrets.html"), _page(head, body).encode(charset))
    assert document.title == "Ferrets"
    assert [b.text for b in document.blocks] == [body]


def test_xhtml_in_the_encoding_its_xml_declaration_names_is_read() -> None:
    page = '<?xml version="1.0" encoding="ISO-8859-15"?>\n' + _page("", "Prix : 10 €")
    document = read_document(Path("prix.xhtml"), page.encode("iso-8859-15"))
    assert [b.text for b in document.blocks] == ["Prix : 10 €"]


def test_utf8_html_that_declares_latin1_stays_utf8() -> None:
    body = "Crème brûlée — “quoted”"
    page = _page('<meta charset="iso-8859-1">', body).encode("utf-8")
    assert [b.text for b in read_document(Path("p.html"), page).blocks] == [body]


@pytest.mark.parametrize(
    "head",
    [
        "",
        '<meta charset="utf-8">',
        '<meta charset="utf-16">',
        '<meta charset="no-such-charset">',
        '<meta charset="base64">',
    ],
)
def test_html_that_is_not_utf8_nor_declared_is_unreadable(head: str) -> None:
    page = _page(head, "caf\u00e9").encode("latin-1")
    with pytest.raises(Unreadable, match=r"^not UTF-8 text \(line 1\); save it as UTF-8$"):
        read_document(Path("p.html"), page)


def test_ingest_indexes_a_utf16_text_file(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "notes.txt").write_bytes("Quokka notes from the island.\r\n".encode("utf-16"))
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    report = ingest([docs], settings)
    assert report.indexed == 1 and report.skipped == []
    [found] = KnowledgeIndex(settings.path).search("quokka")
    assert found.text == "Quokka notes from the island."
