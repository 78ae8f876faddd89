"""Pick a reader by file extension and turn one file into a :class:`Document`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.knowledge.document import Document, Unreadable
from bot.knowledge.encoding import decode, decode_html
from bot.knowledge.html_reader import read_html
from bot.knowledge.markdown_reader import read_markdown, read_text
from bot.knowledge.pdf_reader import PageCallback, read_pdf

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".mkd"})
TEXT_SUFFIXES = frozenset({".txt", ".text", ".rst"})
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
PDF_SUFFIXES = frozenset({".pdf"})
SUPPORTED_SUFFIXES = MARKDOWN_SUFFIXES | TEXT_SUFFIXES | HTML_SUFFIXES | PDF_SUFFIXES


def is_supported(path: Path) -> bool:
    """True when citecast has a reader for this file's extension."""
    return path.suffix.lower() in SUPPORTED_SUFFIXES


def _text(data: bytes, decoder: Callable[[bytes], str]) -> str:
    text = decoder(data)
    # Only now is a UTF-16 file of spaces (a BOM and NUL bytes) seen to be empty.
    if not text.strip():
        raise Unreadable("empty file")
    return text


def read_document(path: Path, data: bytes, on_page: PageCallback | None = None) -> Document:
    """Parse ``data`` (the bytes of ``path``); raises Unreadable with the reason to skip it.

    ``on_page(page, pages)`` runs before each page of a PDF (see :func:`read_pdf`).
    """
    if not data.strip():
        raise Unreadable("empty file")
    suffix = path.suffix.lower()
    if suffix in PDF_SUFFIXES:
        document = read_pdf(path, data, on_page)
    elif suffix in HTML_SUFFIXES:
        document = read_html(_text(data, decode_html), path.name)
    elif suffix in MARKDOWN_SUFFIXES:
        document = read_markdown(_text(data, decode), path.name)
    elif suffix in TEXT_SUFFIXES:
        document = read_text(_text(data, decode), path.name)
    else:
        raise Unreadable(f"unsupported file type ({suffix or 'no extension'})")
    if not document.blocks:
        raise Unreadable("no text")
    return document
