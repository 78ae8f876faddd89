"""PDF ingestion: pages from 1, page_end only across a page break, encrypted files skipped."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Unreadable
from bot.knowledge.readers import read_document
from tests.knowledge.conftest import PdfBuilder


def test_pdf_blocks_carry_their_page_and_heading(build_pdf: PdfBuilder) -> None:
    data = build_pdf([("Alpha", ["First page words."]), ("Beta", ["Second page words."])])
    doc = read_document(Path("two.pdf"), data)
    assert doc.pages == 2
    assert [(b.text, b.page, b.section) for b in doc.blocks] == [
        ("First page words.", 1, "Alpha"),
        ("Second page words.", 2, "Beta"),
    ]


def test_chunks_crossing_a_page_break_get_page_end(tmp_path: Path, build_pdf: PdfBuilder) -> None:
    pages = [(f"Part {n}", [f"Short paragraph number {n} about zebras."]) for n in (1, 2, 3)]
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "short.pdf").write_bytes(build_pdf(pages))
    long_pages = [(f"Long {n}", ["Zebra sentence goes on and on here. " * 30]) for n in (1, 2)]
    (tmp_path / "docs" / "long.pdf").write_bytes(build_pdf(long_pages))
    settings = IndexSettings(path=str(tmp_path / "index.db"), chunk_chars=400)
    report = ingest([tmp_path / "docs"], settings)
    assert report.pages == 5 and not report.skipped
    index = KnowledgeIndex(settings.path)
    found = {s.id: s for s in index.search("zebra", limit=50)}
    # Headings differ per page, so every page of short.pdf starts its own chunk.
    assert [
        (found[f"docs/short.pdf#{n}"].page, found[f"docs/short.pdf#{n}"].page_end)
        for n in (1, 2, 3)
    ] == [(1, None), (2, None), (3, None)]
    long_chunks = sorted(
        (s for s in found.values() if s.filename == "long.pdf"), key=lambda s: s.chunk or 0
    )
    assert long_chunks[0].page == 1
    assert all(s.page_end is None or s.page_end > (s.page or 0) for s in long_chunks)
    assert {s.page for s in long_chunks} == {1, 2}
    assert all(s.media_type == "application/pdf" for s in long_chunks)


def test_pdf_without_section_changes_gets_page_end(tmp_path: Path, build_pdf: PdfBuilder) -> None:
    # Same heading text on both pages: the section continues and a chunk spans the break.
    pages = [
        ("Manual", ["Words about otters on page one."]),
        ("Manual", ["More otters on page two."]),
    ]
    (tmp_path / "m.pdf").write_bytes(build_pdf(pages))
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([tmp_path / "m.pdf"], settings)
    [source] = KnowledgeIndex(settings.path).search("otters")
    assert (source.page, source.page_end, source.section) == (1, 2, "Manual")
    assert source.id == "m.pdf#1"


def _encrypted(data: bytes, password: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=password, owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_encrypted_pdf_is_skipped_with_a_reason(tmp_path: Path, build_pdf: PdfBuilder) -> None:
    locked = _encrypted(build_pdf([("Secret", ["Locked words."])]), "hunter2")
    with pytest.raises(Unreadable, match="encrypted PDF"):
        read_document(Path("locked.pdf"), locked)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "locked.pdf").write_bytes(locked)
    (tmp_path / "docs" / "open.md").write_text("# Open\n\nReadable words.\n")
    report = ingest([tmp_path / "docs"], IndexSettings(path=str(tmp_path / "i.db")))
    assert report.indexed == 1
    assert [(s.path, s.reason) for s in report.skipped] == [
        ("docs/locked.pdf", "encrypted PDF (needs a password)")
    ]


def test_pdf_with_empty_user_password_is_read(build_pdf: PdfBuilder) -> None:
    opened = _encrypted(build_pdf([("Open", ["Owner-locked only."])]), "")
    doc = read_document(Path("owner.pdf"), opened)
    assert [b.text for b in doc.blocks] == ["Owner-locked only."]
