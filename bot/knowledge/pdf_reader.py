"""PDF reader (pypdf): one or more blocks per page, pages numbered from 1.

An encrypted PDF that does not open with an empty password, a damaged file, or one with no
extractable text (a scan) is Unreadable with the reason.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

from bot.knowledge.document import Block, Document, Unreadable

log = logging.getLogger(__name__)


def paragraphs(text: str) -> list[tuple[str, bool]]:
    """Rebuild paragraphs from a page's extracted lines.

    PDF text has no paragraph marks, so: a blank line ends a paragraph; so does a line that ends
    a sentence while clearly shorter than the page's full lines; a short line without final
    punctuation at the start of a paragraph is a heading. Returns ``(text, is_heading)`` pairs.
    """
    lines = [" ".join(line.split()) for line in text.split("\n")]
    width = max((len(line) for line in lines), default=0)
    out: list[tuple[str, bool]] = []
    current: list[str] = []
    for line in lines:
        if not line:
            if current:
                out.append((" ".join(current), False))
                current = []
            continue
        heading = len(line) < 60 and not line.endswith((".", ",", ";", ":", "!", "?"))
        if heading and not current:
            out.append((line, True))
            continue
        current.append(line)
        if line.endswith((".", "!", "?", ":")) and len(line) < 0.8 * width:
            out.append((" ".join(current), False))
            current = []
    if current:
        out.append((" ".join(current), False))
    return out


def read_pdf(path: Path, data: bytes) -> Document:
    """Extract each page's text as paragraph blocks tagged with the page number."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except (PyPdfError, NotImplementedError) as exc:
                raise Unreadable(f"encrypted PDF ({exc})") from None
            if not opened:
                raise Unreadable("encrypted PDF (needs a password)")
        title = None
        try:
            meta = reader.metadata
            title = str(meta.title).strip() if meta is not None and meta.title else None
        except PyPdfError:
            title = None
        blocks: list[Block] = []
        section: str | None = None
        pages = len(reader.pages)
        for number, page in enumerate(reader.pages, start=1):
            text = (page.extract_text() or "").replace("\r\n", "\n").replace("\r", "\n")
            for paragraph, is_heading in paragraphs(text):
                if is_heading:
                    section = paragraph
                else:
                    blocks.append(Block(paragraph, section=section, page=number))
    except Unreadable:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        raise Unreadable(f"damaged PDF ({exc.__class__.__name__}: {exc})") from None
    if not blocks:
        raise Unreadable("no extractable text (a scanned PDF?)")
    return Document(
        title=title or path.name, media_type="application/pdf", blocks=blocks, pages=pages
    )
