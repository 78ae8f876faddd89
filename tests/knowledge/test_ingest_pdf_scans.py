"""A PDF whose pages are mostly images (a scan with a typed cover page) is indexed with a
warning naming the pages search cannot find, instead of looking fully indexed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from bot.cli import main
from bot.knowledge.readers import read_document
from tests.knowledge.conftest import PdfBuilder


def _with_blank_pages(data: bytes, blanks: list[int]) -> bytes:
    """``data`` with a page without text inserted at each index of ``blanks``."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    for index in blanks:
        writer.insert_blank_page(612, 792, index=index)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _cover(build_pdf: PdfBuilder, pages: int = 1) -> bytes:
    return build_pdf(
        [(f"Part {n}", [f"Walrus part {n} is typed text about tusks."]) for n in range(pages)]
    )


def test_a_scan_with_a_typed_cover_warns_about_its_image_pages(
    tmp_path: Path, build_pdf: PdfBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "scan.pdf").write_bytes(_with_blank_pages(_cover(build_pdf), [1, 1, 1, 1, 1]))
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'i.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    out = capsys.readouterr().out
    assert "1 file: 1 indexed" in out
    assert (
        "  indexed docs/scan.pdf in part: 5 of 6 pages have no text (scanned images?) and "
        "cannot be found by search: pages 2-6\n"
    ) in out


def test_page_ranges_in_the_warning(build_pdf: PdfBuilder) -> None:
    data = _with_blank_pages(_cover(build_pdf, 2), [0, 0, 3, 4])
    [warning] = read_document(Path("s.pdf"), data).warnings
    assert warning == (
        "4 of 6 pages have no text (scanned images?) and cannot be found by search: pages 1-2, 4-5"
    )


@pytest.mark.parametrize("blanks", [[], [1], [1, 3]])
def test_a_blank_page_here_and_there_says_nothing(build_pdf: PdfBuilder, blanks: list[int]) -> None:
    data = _with_blank_pages(_cover(build_pdf, 3), blanks)
    assert read_document(Path("s.pdf"), data).warnings == ()
