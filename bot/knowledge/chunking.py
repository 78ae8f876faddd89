"""Blocks to chunks: paragraph-aligned, never across a heading, pages carried along.

A chunk holds whole blocks of one section up to ``chunk_chars``; a block longer than that is
cut at sentence ends (or, failing that, at line breaks, so that a table row stays whole, then
at spaces); a pipe table is cut between rows, and each of its later chunks opens with the
table's header and delimiter lines again, so that a row keeps its column names. A chunk
that starts on one PDF page and ends on another gets ``page_end``, and ``page_starts``: where
each of its pages begins in its text, so a citation quoting the chunk can point at the page
the quote is on (:mod:`bot.knowledge.page_spans`). ``overlap`` carries the tail sentences of
the previous chunk of the same section into the next one, for retrieval across a cut (not into
a table's later chunk, which opens with the header). A code block (``kind == "code"``) is never
cut and always reaches the chunk text fenced, whichever reader made it, so that answerers and
models see it as code, never as prose to quote.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bot.knowledge.document import Block
from bot.knowledge.sentence_ends import sentence_spans, weak_end_before

_OPENING_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`{3,}")
_DELIMITER_CELL = re.compile(r":?-+:?")


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
    or spaces; a pipe table between rows, each piece after its first opening with the table's
    header and delimiter lines again."""
    return [piece for piece, _ in _pieces(text, limit)]


def _split_prose(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, whole sentences where they fit.

    A sentence longer than ``limit`` is cut at a line break (a table's or a list's rows stay
    whole), else after a full stop before a lower-case word (a sentence end all the same), else
    at a space. Positions, never copies of the rest: a text of many megabytes without a
    sentence end is cut in linear time.
    """
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    current = ""
    previous_end = 0
    for pos, end in sentence_spans(text):
        # sentences of one piece are joined by a space, as cut, unless none stood between
        # them (Chinese and Japanese)
        gap = " " if pos > previous_end else ""
        previous_end = end
        while end - pos > limit:
            half, stop = pos + limit // 2, pos + limit
            cut = text.rfind("\n", pos, stop)
            cut = cut if cut > half else weak_end_before(text, pos, stop + 1)
            cut = cut if cut > half else text.rfind(" ", pos, stop)
            cut = cut if cut > half else stop
            head = text[pos:cut].rstrip()
            pos = cut
            while pos < end and text[pos].isspace():
                pos += 1
            if current:
                pieces.append(current)
                current = ""
            pieces.append(head)
        sentence = text[pos:end]
        if current and len(current) + len(gap) + len(sentence) > limit:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current}{gap}{sentence}" if current else sentence
    if current:
        pieces.append(current)
    return pieces


def _pieces(text: str, limit: int) -> list[tuple[str, bool]]:
    """``split_long``'s pieces, each with whether it opens with a repeated table header (such a
    piece starts a chunk of its own, with no overlap before the header)."""
    if len(text) <= limit:
        return [(text, False)]
    pieces: list[tuple[str, bool]] = []
    for header, lines in _segments(text):
        if header and len(header) <= limit // 2:
            # the text before a table stays with its header and first row when they fit
            first_row = len(lines[2]) + 1 if len(lines) > 2 else 0
            fits = pieces and len(pieces[-1][0]) + 1 + len(header) + first_row <= limit
            lead, repeated = pieces.pop() if fits else ("", False)
            new = _table_pieces(header, lines, limit, lead)
            new[0] = (new[0][0], repeated)
        else:  # prose, or a header too long to repeat: cut as any text
            new = [(piece, False) for piece in _split_prose("\n".join(lines), limit)]
            # what fits after the previous segment's last piece joins it, as in one text
            if pieces and len(pieces[-1][0]) + 1 + len(new[0][0]) <= limit:
                pieces[-1] = (f"{pieces[-1][0]}\n{new.pop(0)[0]}", pieces[-1][1])
        pieces.extend(new)
    return pieces


def _segments(text: str) -> list[tuple[str, list[str]]]:
    """``text``'s lines as runs: a pipe table is ``(header and delimiter lines, its lines from
    the header on)``, other lines ``("", lines)``. A table ends at a line without ``|``; fenced
    code holds no table."""
    lines = text.split("\n")
    segments: list[tuple[str, list[str]]] = []
    plain: list[str] = []
    fence = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        opening = _OPENING_FENCE.match(line)
        if fence:
            if opening and opening.group(1).startswith(fence) and line.strip() == opening.group(1):
                fence = ""
        elif opening:
            fence = opening.group(1)
        elif "|" in line and index + 1 < len(lines) and _is_delimiter(lines[index + 1]):
            end = index + 2
            while end < len(lines) and "|" in lines[end] and lines[end].strip():
                end += 1
            if plain:
                segments.append(("", plain))
                plain = []
            segments.append(("\n".join(lines[index : index + 2]), lines[index:end]))
            index = end
            continue
        plain.append(line)
        index += 1
    if plain:
        segments.append(("", plain))
    return segments


def _is_delimiter(line: str) -> bool:
    """A pipe table's delimiter line (``|---|:--:|``): cells of dashes, colons at their ends."""
    inner = line.strip()
    if "|" not in inner:
        return False  # "---" is a thematic break or a heading's underline
    inner = inner.removeprefix("|").removesuffix("|")
    return all(_DELIMITER_CELL.fullmatch(cell.strip()) for cell in inner.split("|"))


def _table_pieces(
    header: str, lines: list[str], limit: int, lead: str = ""
) -> list[tuple[str, bool]]:
    """A table cut between rows, the first piece opening with ``lead`` (the text before it)
    when there is one; every piece after the first opens with ``header`` again, so that a row
    far down still has its column names. A row too long for a piece with the header is cut as
    prose, without it."""
    pieces: list[tuple[str, bool]] = []
    current, repeated, rows = (f"{lead}\n{header}" if lead else header), False, 0
    for row in lines[2:]:
        if len(current) + 1 + len(row) <= limit:
            current, rows = f"{current}\n{row}", rows + 1
            continue
        if rows or not repeated:
            pieces.append((current, repeated))
        if len(header) + 1 + len(row) <= limit:
            current, repeated, rows = f"{header}\n{row}", True, 1
        else:
            pieces.extend((piece, False) for piece in _split_prose(row, limit))
            current, repeated, rows = header, True, 0
    if rows or not repeated:
        pieces.append((current, repeated))
    return pieces


def _tail(text: str, overlap: int) -> str:
    if overlap <= 0:
        return ""
    kept = ""
    following = len(text)  # where the sentence after the kept ones starts
    for start, end in reversed(sentence_spans(text)):
        gap = " " if end < following and kept else ""
        if len(kept) + len(gap) + (end - start) > overlap:
            break
        kept, following = f"{text[start:end]}{gap}{kept}", start
    return kept


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
            [(fenced(block.text), False)]
            if block.kind == "code"
            else _pieces(block.text, chunk_chars)
        )
        for piece, repeats_header in pieces:
            new_section = block.section != section
            if parts and (new_section or repeats_header or size + len(piece) + 2 > chunk_chars):
                done = emit()
                yield done
                # A table's later passage opens with its header, not with the rows before it.
                carry = "" if new_section or repeats_header else _tail(done.text, overlap)
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
