"""Blocks to chunks: paragraph-aligned, never across a heading, pages carried along.

A chunk holds whole blocks of one section up to ``chunk_chars``; a block longer than that is
cut at sentence ends (or, failing that, at line breaks, so that a table row stays whole, then
at spaces). A chunk that starts on one PDF page and ends on another gets ``page_end``, and
``page_starts``: where each of its pages begins in its text, so a citation quoting the chunk
can point at the page the quote is on
(:mod:`bot.knowledge.page_spans`). ``overlap`` carries the tail sentences of the previous chunk
of the same section into the next one, for retrieval across a cut. A code block (``kind ==
"code"``) is never cut and always reaches the chunk text fenced, whichever reader made it, so
that answerers and models see it as code, never as prose to quote.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bot.knowledge.document import Block

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9`*])")
_OPENING_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`{3,}")


@dataclass(frozen=True)
class Chunk:
    """One indexed passage of a file; ``number`` counts from 1 within the file."""

    number: int
    text: str
    section: str | None
    page: int | None
    page_end: int | None
    # (offset in ``text``, page) where each page begins, first at 0; empty unless the chunk
    # crosses a page break (one page needs no map: ``page`` says it all).
    page_starts: tuple[tuple[int, int], ...] = ()


def fenced(code: str) -> str:
    """``code`` as a fenced block: as it is when it already opens with a fence (Markdown), else
    between fences longer than any backtick run inside it (HTML ``<pre>``)."""
    if _OPENING_FENCE.match(code):
        return code
    fence = "`" * max([3, *(len(run) + 1 for run in _BACKTICKS.findall(code))])
    return f"{fence}\n{code}\n{fence}"


def split_long(text: str, limit: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` characters at sentence ends, line breaks
    or spaces."""
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(text):
        while len(sentence) > limit:
            # a line break first: a table's or a list's rows stay whole
            cut = sentence.rfind("\n", 0, limit)
            cut = cut if cut > limit // 2 else sentence.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            head, sentence = sentence[:cut].rstrip(), sentence[cut:].lstrip()
            if current:
                pieces.append(current)
                current = ""
            pieces.append(head)
        if current and len(current) + 1 + len(sentence) > limit:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        pieces.append(current)
    return pieces


def _tail(text: str, overlap: int) -> str:
    if overlap <= 0:
        return ""
    sentences = _SENTENCE_END.split(text)
    kept: list[str] = []
    size = 0
    for sentence in reversed(sentences):
        if size + len(sentence) > overlap:
            break
        kept.insert(0, sentence)
        size += len(sentence) + 1
    return " ".join(kept)


def page_starts(parts: list[str], pages: list[int | None]) -> tuple[tuple[int, int], ...]:
    """Where each page begins in the chunk text (``parts`` joined by blank lines): ``(offset,
    page)`` pairs, one per change of page, the first at offset 0. ``pages`` holds each part's
    page; a part without one (not a PDF) adds nothing."""
    starts: list[tuple[int, int]] = []
    offset = 0
    for part, page in zip(parts, pages, strict=True):
        if page is not None and (not starts or starts[-1][1] != page):
            starts.append((offset, page))
        offset += len(part) + 2  # the blank line that joins parts
    return tuple(starts)


def chunk_blocks(blocks: Iterable[Block], chunk_chars: int, overlap: int = 0) -> Iterator[Chunk]:
    """Group blocks into chunks; yields them in document order, numbered from 1."""
    number = 0
    parts: list[str] = []
    part_pages: list[int | None] = []  # the page each part is on, beside ``parts``
    size = 0
    section: str | None = None
    first_page: int | None = None
    last_page: int | None = None

    def emit() -> Chunk:
        nonlocal number
        number += 1
        end = last_page if last_page is not None and last_page != first_page else None
        starts = page_starts(parts, part_pages) if end is not None else ()
        return Chunk(number, "\n\n".join(parts), section, first_page, end, starts)

    for block in blocks:
        pieces = (
            [fenced(block.text)] if block.kind == "code" else split_long(block.text, chunk_chars)
        )
        for piece in pieces:
            new_section = block.section != section
            if parts and (new_section or size + len(piece) + 2 > chunk_chars):
                done = emit()
                yield done
                carry = "" if new_section else _tail(done.text, overlap)
                if carry and len(carry) + len(piece) + 2 > chunk_chars:
                    carry = ""  # the overlap must never push a chunk over the limit
                parts, size = ([carry], len(carry)) if carry else ([], 0)
                first_page = last_page if carry else None
                # The carried tail counts as on the page the previous chunk ended on, as the
                # chunk's own ``page`` does.
                part_pages = [first_page] if carry else []
            if not parts:
                first_page = block.page
            section = block.section
            parts.append(piece)
            part_pages.append(block.page if block.page is not None else last_page)
            size += len(piece) + 2
            last_page = block.page if block.page is not None else last_page
    if parts:
        yield emit()
