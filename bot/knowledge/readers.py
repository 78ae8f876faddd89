"""Pick a reader by file extension and turn one file into a :class:`Document`.

Front matter is read from HTML and plain-text files too, not only Markdown: Jekyll and Hugo
pages written in HTML (or reStructuredText) carry the same ``---`` block, and one naming
``audience: [hr]`` must never be indexed as public text (nor may front matter ``public``
widen what a page's meta tag keeps for staff). A title or section name longer
than a source list can show is cut (:mod:`bot.knowledge.title_caps`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

from bot.knowledge.audience_rules import narrower
from bot.knowledge.document import Document, Unreadable
from bot.knowledge.encoding import decode, decode_html
from bot.knowledge.front_matter import split_front_matter
from bot.knowledge.front_matter_audience import front_matter_audience
from bot.knowledge.html_reader import read_html
from bot.knowledge.invisible_text import is_blank, without_soft_hyphens
from bot.knowledge.markdown_reader import read_markdown, read_text
from bot.knowledge.pdf_reader import PageCallback, read_pdf
from bot.knowledge.rst_reader import read_rst
from bot.knowledge.title_caps import MAX_TITLE_CHARS, capped, capped_section

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".mkd"})
# Markdown with JSX (Docusaurus, Nextra, Astro docs): read by the Markdown reader in MDX mode
MDX_SUFFIXES = frozenset({".mdx"})
TEXT_SUFFIXES = frozenset({".txt", ".text"})
# reStructuredText: plain text whose section titles are headings (bot.knowledge.rst_reader)
RST_SUFFIXES = frozenset({".rst"})
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
PDF_SUFFIXES = frozenset({".pdf"})
SUPPORTED_SUFFIXES = (
    MARKDOWN_SUFFIXES | MDX_SUFFIXES | TEXT_SUFFIXES | RST_SUFFIXES | HTML_SUFFIXES | PDF_SUFFIXES
)


def is_supported(path: Path) -> bool:
    """True when citecast has a reader for this file's extension."""
    return path.suffix.lower() in SUPPORTED_SUFFIXES


def _text(data: bytes, decoder: Callable[[bytes], str]) -> str:
    text = decoder(data)
    # Only now is a UTF-16 file of spaces (a BOM and NUL bytes) seen to be empty; a file of
    # zero-width spaces is as empty (bot.knowledge.invisible_text).
    if is_blank(text):
        raise Unreadable("empty file")
    return text


def _with_front_matter(text: str, read: Callable[[str], Document]) -> Document:
    """``read`` the body after a leading front-matter block; the block's ``title`` and ``url``
    win over what the body says (a page's ``<title>``, canonical link). Its ``audience`` and a
    page's meta tag both narrow: the file is for the groups both allow (front matter
    ``public`` beside a meta tag ``staff`` is ``staff``; none: Unreadable)."""
    meta, body = split_front_matter(text, scalar_is_body=True)
    document = read(body)
    if not meta:
        return document
    title = meta.get("title")
    named = str(title).strip() if isinstance(title, str | int) else ""
    url = meta.get("url")
    return replace(
        document,
        title=named or document.title,
        url=url if isinstance(url, str) else document.url,
        audience=_both(front_matter_audience(meta), document.audience),
    )


def _both(
    written: tuple[str, ...] | None, tagged: tuple[str, ...] | None
) -> tuple[str, ...] | None:
    """The audience front matter (``written``) and a page's meta tags (``tagged``) allow."""
    if written is None or tagged is None:
        return written or tagged
    groups = narrower(written, tagged)
    if not groups:
        raise Unreadable(
            f"front matter audience {', '.join(written)} and citecast:audience "
            f"{', '.join(tagged)}: no group may see both; name the audience once"
        )
    return groups


def read_document(path: Path, data: bytes, on_page: PageCallback | None = None) -> Document:
    """Parse ``data`` (the bytes of ``path``); raises Unreadable with the reason to skip it.

    ``on_page(page, pages)`` runs before each page of a PDF (see :func:`read_pdf`).
    """
    if not data.strip():
        raise Unreadable("empty file")
    suffix = path.suffix.lower()
    text = ""  # the decoded text of a text file
    if suffix in PDF_SUFFIXES:
        document = read_pdf(path, data, on_page)
    elif suffix in HTML_SUFFIXES:
        text = _text(data, decode_html)
        document = _with_front_matter(text, lambda body: read_html(body, path.name))
    elif suffix in MARKDOWN_SUFFIXES | MDX_SUFFIXES:
        text = _text(data, decode)
        document = read_markdown(text, path.name, mdx=suffix in MDX_SUFFIXES)
    elif suffix in TEXT_SUFFIXES:
        text = _text(data, decode)
        document = _with_front_matter(text, lambda body: read_text(body, path.name))
    elif suffix in RST_SUFFIXES:
        text = _text(data, decode)
        document = _with_front_matter(text, lambda body: read_rst(body, path.name))
    else:
        raise Unreadable(f"unsupported file type ({suffix or 'no extension'})")
    document = without_soft_hyphens(document)
    if not document.blocks:
        raise Unreadable(_no_text(text, document.warnings))
    return _capped_names(_parseable_url(document))


def _capped_names(document: Document) -> Document:
    """``document`` with its title and section names cut to a length a source list can show
    (:mod:`bot.knowledge.title_caps`): a 30,000-word heading is not a title."""
    sections: dict[str, str] = {}  # many blocks share one section
    blocks = []
    for block in document.blocks:
        section = block.section
        if section is not None and len(section) > MAX_TITLE_CHARS:
            if section not in sections:
                sections[section] = capped_section(section)
            block = replace(block, section=sections[section])
        blocks.append(block)
    title = capped(document.title) if document.title else document.title
    if not sections and title == document.title:
        return document
    return replace(document, title=title, blocks=blocks)


def _no_text(text: str, warnings: Sequence[str] = ()) -> str:
    """Why a file gave no blocks: a page stub of front matter alone says so, and so does what
    the reader warned of (a ``<!--`` never closed on line 1 hid the whole file: a skipped file
    has no "indexed in part" line to carry the warning)."""
    if warnings:
        return f"no text: {'; '.join(warnings)}"
    try:
        meta, body = split_front_matter(text, scalar_is_body=True)
    except Unreadable:
        return "no text"
    return "no text (only front matter)" if meta and not body.strip() else "no text"


def _parseable_url(document: Document) -> Document:
    """``document`` without a URL that cannot be parsed ("http://[::1" from a canonical link
    or front matter), with a warning: such a URL costs the citation its link, never the file
    its place in the index."""
    if document.url is None:
        return document
    try:
        urlsplit(document.url)
    except ValueError:
        shown = document.url if len(document.url) <= 80 else document.url[:77] + "..."
        warning = f"its URL {shown!r} is not a valid URL and is left out"
        return replace(document, url=None, warnings=(*document.warnings, warning))
    return document
