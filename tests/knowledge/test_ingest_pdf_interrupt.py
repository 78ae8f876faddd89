"""Ctrl-C while a long PDF is read stops before its next page, not after the whole file: the
PDF is left out whole, and the next run reads it."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
from pypdf import PageObject

from bot.cli import main
from bot.knowledge import KnowledgeIndex
from tests.knowledge.conftest import PdfBuilder

PAGES = 8


@pytest.fixture
def pages_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every page extraction, as it happens; Ctrl-C arrives while the second page is read."""
    real = PageObject.extract_text
    read: list[int] = []

    def extract_text(self: PageObject, *args: Any, **kwargs: Any) -> str:
        read.append(1)
        if len(read) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(PageObject, "extract_text", extract_text)
    return read


def _docs(tmp_path: Path, build_pdf: PdfBuilder) -> tuple[Path, Path]:
    docs = tmp_path / "docs"
    docs.mkdir()
    pages = [
        (f"Chapter {n}", [f"Narwhal chapter {n} explains the tusk care routine in detail."])
        for n in range(1, PAGES + 1)
    ]
    (docs / "a-manual.pdf").write_bytes(build_pdf(pages))
    (docs / "b-notes.md").write_text("# Notes\n\nNarwhal notes.\n", encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'kb' / 'index.db'}\n", encoding="utf-8")
    return docs, config


def test_ctrl_c_inside_a_pdf_stops_before_its_next_page(
    tmp_path: Path,
    build_pdf: PdfBuilder,
    pages_read: list[int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    docs, config = _docs(tmp_path, build_pdf)
    assert main(["--config", str(config), "ingest", str(docs)]) == 130
    assert len(pages_read) == 2  # not all 8 pages before the stop was noticed
    assert capsys.readouterr().err == (
        "citecast ingest: interrupted after 0 of 2 files; no index was written\n"
    )
    assert not (tmp_path / "kb" / "index.db").exists()


def test_a_pdf_stopped_half_way_in_an_update_is_read_whole_next_time(
    tmp_path: Path,
    build_pdf: PdfBuilder,
    pages_read: list[int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    docs, config = _docs(tmp_path, build_pdf)
    assert main(["--config", str(config), "ingest", str(docs / "b-notes.md")]) == 0
    capsys.readouterr()
    assert main(["--config", str(config), "ingest", str(docs)]) == 130
    assert len(pages_read) == 2
    assert capsys.readouterr().err == (
        "citecast ingest: interrupted after 0 of 2 files; the files read so far are in the "
        "index; run the command again to finish\n"
    )
    assert main(["--config", str(config), "ingest", str(docs)]) == 0  # no Ctrl-C this time
    assert "2 files: 1 indexed, 1 unchanged" in capsys.readouterr().out
    index = KnowledgeIndex(tmp_path / "kb" / "index.db")
    try:
        found = index.search("narwhal tusk care routine", limit=20)
    finally:
        index.close()
    assert {s.page for s in found if s.filename == "a-manual.pdf"} == set(range(1, PAGES + 1))
