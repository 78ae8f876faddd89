"""Characters a page shows no glyph for: soft hyphens leave the text, and text of nothing else
(with spaces) is empty.

A soft hyphen (U+00AD, HTML's ``&shy;``, Word's optional hyphen) marks where a word may break:
a browser shows ``authenti&shy;cation`` whole, but read as a character it split the word, so
searching for "authentication" missed it. Every reader's text loses it here, as PDF text
already did (:mod:`bot.knowledge.pdf_reader`), so a citation's quote is the word as a reader
sees it on the page, not one with an invisible character in its ``#:~:text=`` link. A file
or block of zero-width spaces, joiners and byte-order marks alone is as empty as one of spaces.
"""

from __future__ import annotations

from dataclasses import replace

from bot.knowledge.document import Document

SOFT_HYPHEN = "\u00ad"
# no glyph and no width: what a file of only these (and spaces) shows is nothing
_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff" + SOFT_HYPHEN
_NO_ZERO_WIDTH = str.maketrans("", "", _ZERO_WIDTH)


def is_blank(text: str) -> bool:
    """Whether ``text`` shows nothing: spaces, line breaks and zero-width characters only."""
    return not text.translate(_NO_ZERO_WIDTH).strip()


def without_soft_hyphens(document: Document) -> Document:
    """``document`` with no soft hyphen in its title, blocks and section names, and without
    blocks that show nothing."""
    if not _has_invisible(document):
        return document
    blocks = [
        replace(
            block,
            text=block.text.replace(SOFT_HYPHEN, ""),
            section=block.section.replace(SOFT_HYPHEN, "") if block.section else block.section,
        )
        for block in document.blocks
        if not is_blank(block.text)
    ]
    title = document.title.replace(SOFT_HYPHEN, "") if document.title else document.title
    return replace(document, title=title, blocks=blocks)


def _has_invisible(document: Document) -> bool:
    if document.title and SOFT_HYPHEN in document.title:
        return True
    return any(
        SOFT_HYPHEN in block.text
        or (block.section and SOFT_HYPHEN in block.section)
        or is_blank(block.text)
        for block in document.blocks
    )
