"""Damaged or odd PDFs: a page pypdf cannot read costs that page, never the file; errors are
one line; a title a tool wrote in place of one is not the title."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest
from pypdf import PdfReader, PdfWriter

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Unreadable
from bot.knowledge.readers import read_document
from tests.knowledge.conftest import PdfBuilder

PAGES = [
    ("Intake", ["Capybaras are weighed on arrival."]),
    ("Feeding", ["Capybaras graze on grass twice a day."]),
    ("Release", ["Capybaras leave on a sunny morning."]),
]


@pytest.fixture
def broken_pages(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Words whose page makes pypdf's text extraction raise, as a damaged font's character
    map does (pypdf issues #1899, #2290: IndexError in build_char_map)."""
    words: set[str] = set()
    extract = pypdf.PageObject.extract_text

    def extract_text(page: pypdf.PageObject, *args: object, **kwargs: object) -> str:
        text: str = extract(page, *args, **kwargs)  # type: ignore[arg-type]
        if any(word in text for word in words):
            raise IndexError("list index out of range")
        return text

    monkeypatch.setattr(pypdf.PageObject, "extract_text", extract_text)
    return words


def test_a_page_that_cannot_be_read_leaves_the_others_indexed(
    tmp_path: Path,
    build_pdf: PdfBuilder,
    broken_pages: set[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "manual.pdf").write_bytes(build_pdf(PAGES))
    broken_pages.add("grass")
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(tmp_path / "kb")]) == 0
    out = capsys.readouterr().out
    assert "1 file: 1 indexed, 0 unchanged, 0 skipped" in out
    assert (
        "  indexed kb/manual.pdf in part: page 2 could not be read and is left out "
        "(IndexError: list index out of range)"
    ) in out
    found = KnowledgeIndex(tmp_path / "index.db").search("capybaras", limit=10)
    assert sorted(s.page for s in found if s.page is not None) == [1, 3]


def test_several_pages_that_cannot_be_read_are_named_in_one_warning(
    build_pdf: PdfBuilder, broken_pages: set[str]
) -> None:
    broken_pages.update(("weighed", "sunny"))
    document = read_document(Path("manual.pdf"), build_pdf(PAGES))
    assert [block.page for block in document.blocks] == [2]
    assert document.warnings == (
        "pages 1, 3 could not be read and are left out (IndexError: list index out of range)",
    )


def test_a_pdf_whose_pages_all_fail_is_skipped_in_one_line(
    build_pdf: PdfBuilder, broken_pages: set[str]
) -> None:
    broken_pages.add("Capybaras")
    with pytest.raises(Unreadable) as caught:
        read_document(Path("manual.pdf"), build_pdf(PAGES))
    assert str(caught.value) == (
        "damaged PDF (no page could be read: IndexError: list index out of range)"
    )


def test_an_unexpected_error_opening_a_pdf_is_a_damaged_pdf(
    build_pdf: PdfBuilder, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AttributeError("'NullObject' object has no attribute 'get'")

    monkeypatch.setattr(pypdf, "PdfReader", refuse)
    with pytest.raises(Unreadable, match=r"^damaged PDF \(AttributeError: 'NullObject'"):
        read_document(Path("manual.pdf"), build_pdf(PAGES))


def test_a_file_named_pdf_that_is_not_one_says_so(tmp_path: Path) -> None:
    (tmp_path / "kb").mkdir()
    error_page = b"<!doctype html><html><body><h1>403 Forbidden</h1></body></html>"
    (tmp_path / "kb" / "report.pdf").write_bytes(error_page)
    report = ingest([tmp_path / "kb"], IndexSettings(path=str(tmp_path / "i.db")))
    [skipped] = report.skipped
    assert skipped.reason.startswith("not a PDF (no %PDF- header")


@pytest.mark.parametrize("algorithm", ["AES-128", "AES-256"])
def test_an_aes_pdf_without_a_user_password_is_read(
    tmp_path: Path, build_pdf: PdfBuilder, algorithm: str
) -> None:
    # Word's and Acrobat's "restrict editing": AES with an empty user password
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(build_pdf(PAGES))))
    writer.encrypt(user_password="", owner_password="owner", algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    document = read_document(Path("restricted.pdf"), out.getvalue())
    text = " ".join(block.text for block in document.blocks)
    assert "Capybaras graze on grass twice a day." in text


@pytest.mark.parametrize(
    ("metadata", "title"),
    [
        ("Capybara handbook", "Capybara handbook"),
        ("  Capybara   handbook ", "Capybara handbook"),
        ("Microsoft Word - capybaras_v3.docx", "capybaras.pdf"),
        ("Untitled", "capybaras.pdf"),
        ("capybaras_v3.docx", "capybaras.pdf"),
        ("report.pdf", "capybaras.pdf"),
        ("Annual report 2023.docx", "capybaras.pdf"),
        ("Node.js on capybaras", "Node.js on capybaras"),
    ],
)
def test_a_tool_written_metadata_title_gives_way_to_the_file_name(
    build_pdf: PdfBuilder, metadata: str, title: str
) -> None:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(build_pdf(PAGES))))
    writer.add_metadata({"/Title": metadata})
    out = io.BytesIO()
    writer.write(out)
    assert read_document(Path("capybaras.pdf"), out.getvalue()).title == title


def test_a_pdf_without_pages_is_skipped_as_empty_not_as_a_scan() -> None:
    out = io.BytesIO()
    PdfWriter().write(out)
    with pytest.raises(Unreadable) as raised:
        read_document(Path("blank.pdf"), out.getvalue())
    assert str(raised.value) == "empty PDF (it has no pages)"
