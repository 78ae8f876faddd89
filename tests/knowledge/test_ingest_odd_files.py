"""Odd files in one run: each is indexed sensibly or skipped with a clear reason, never a
traceback, and the files after it are still indexed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from bot.cli import main
from bot.knowledge import KnowledgeIndex
from bot.knowledge.html_reader import read_html
from tests.knowledge.conftest import PdfBuilder

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256))


def _locked(data: bytes) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password="hunter2", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _base_page(base: str, canonical: str, text: str) -> str:
    return (
        f'<html><head><base href="{base}"><link rel="canonical" href="{canonical}">'
        f'<title>{text}</title></head><body><p>{text} <a href="other.html">more</a>.</p>'
        "</body></html>"
    )


def test_odd_files_are_indexed_or_skipped_with_a_reason(
    tmp_path: Path, build_pdf: PdfBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "diagram.md").write_bytes(PNG)  # an image saved with the wrong name
    (docs / "notes.txt").write_bytes("The heron eats fish.\n".encode("utf-16"))  # with a BOM
    (docs / "stub.md").write_text("---\ntitle: Coming soon\n---\n", encoding="utf-8")
    (docs / "base.html").write_text(
        _base_page("https://docs.example.com/guide/", "page.html", "Ibis wading"),
        encoding="utf-8",
    )
    (docs / "bad-base.html").write_text(
        _base_page("http://[::1/", "https://docs.example.com/egret.html", "Egret fishing"),
        encoding="utf-8",
    )
    (docs / "bad-url.html").write_text(
        _base_page("https://docs.example.com/", "http://[broken/x", "Stork nesting"),
        encoding="utf-8",
    )
    (docs / "scan.pdf").write_bytes(build_pdf([("", []), ("", [])]))
    (docs / "locked.pdf").write_bytes(_locked(build_pdf([("Secret", ["Locked words."])])))
    (docs / "zz-last.md").write_text("# Last\n\nThe crane dances.\n", encoding="utf-8")
    config = tmp_path / "citecast.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'i.db'}\n", encoding="utf-8")

    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out and "reader failed" not in out
    assert "9 files: 5 indexed, 0 unchanged, 4 skipped" in out
    for line in (
        "skipped docs/diagram.md: binary content",
        "skipped docs/stub.md: no text (only front matter)",
        "skipped docs/scan.pdf: no extractable text (a scanned PDF?)",
        "skipped docs/locked.pdf: encrypted PDF (needs a password)",
        "indexed docs/bad-url.html in part: its URL 'http://[broken/x' is not a valid URL and "
        "is left out",
    ):
        assert line in out, line
    index = KnowledgeIndex(tmp_path / "i.db")
    try:
        found = {
            source.filename: source.url
            for query in ("heron", "ibis", "egret", "stork", "crane")
            for source in index.search(query)
        }
    finally:
        index.close()
    assert found == {
        "notes.txt": None,
        "base.html": "https://docs.example.com/guide/page.html",
        "bad-base.html": "https://docs.example.com/egret.html",
        "bad-url.html": None,
        "zz-last.md": None,
    }


def test_a_malformed_base_href_is_ignored_as_a_browser_ignores_it() -> None:
    page = _base_page("http://[::1/", "page.html", "Egret fishing")
    doc = read_html(page, "egret.html")
    assert (doc.url, [block.text for block in doc.blocks]) == ("page.html", ["Egret fishing more."])


def test_a_broken_canonical_link_never_stops_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # with a URL template to resolve it against, the link's ValueError ended the whole run
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bad-url.html").write_text(
        '<link rel="canonical" href="http://[broken/x"><p>Stork nesting.</p>', encoding="utf-8"
    )
    (docs / "zz-last.md").write_text("The crane dances.\n", encoding="utf-8")
    config = tmp_path / "citecast.yaml"
    config.write_text(
        f"index:\n  path: {tmp_path / 'i.db'}\n"
        '  url_templates:\n    "*.html": "https://docs.example.com/{path}"\n',
        encoding="utf-8",
    )
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    assert "2 files: 2 indexed" in capsys.readouterr().out
    index = KnowledgeIndex(tmp_path / "i.db")
    try:
        [stork] = index.search("stork")
    finally:
        index.close()
    assert stork.url == "https://docs.example.com/bad-url.html"
