"""The page a quote is on: a citation of a chunk that spans PDF pages, narrowed to its quote.

A chunk may cross a page break (``page`` 1, ``page_end`` 2). Ingestion stores where each of its
pages begins in its text (``page_starts``, see :func:`bot.knowledge.chunking.page_starts`), so
a citation whose quote is found in the chunk shows, and deep-links to (``#page=N``, see
:func:`bot.deeplinks.deep_link`), the page or pages the quote spans rather than the chunk's
first page. A citation whose markers back different sentences (``Citation.occurrences``, set
by grounding from the chunk's first page, which knows no page map) names the span of pages
all its quotes are on ("pp. 1–2"), its link opening that span's first page, and each marker
links the page of its own quote (``Occurrence.page``: also where a marker's signed file link
opens). A citation without a quote, one with a quote the chunk does
not contain (a paraphrase, its own or a marker's: the markers whose quotes are found still
link their pages), a chunk on one page, and a chunk without a page map (a non-PDF file, or an
index from before schema 4) keep the chunk's pages, exactly as before.

Pure functions: the map comes from a ``PageLookup`` (``KnowledgeIndex.page_starts``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from bot.deeplinks import deep_link
from bot.models import Answer, Citation, Occurrence, Source

PageStarts = tuple[tuple[int, int], ...]
"""``(offset in the chunk text, page)`` where each page begins: first offset 0, both rising."""

PageLookup = Callable[[Source], PageStarts | None]
"""The page map of a chunk Source, or None when there is none (or it is not current)."""


def encode_page_starts(starts: PageStarts) -> str | None:
    """The ``chunks.page_starts`` column: JSON pairs, or NULL for a chunk on one page."""
    if len(starts) < 2:
        return None  # one page needs no map: the chunk's ``page`` says it all
    return json.dumps([[offset, page] for offset, page in starts], separators=(",", ":"))


def decode_page_starts(column: str | None) -> PageStarts | None:
    """The inverse of :func:`encode_page_starts`; None for NULL or anything malformed.

    A damaged map must never move a citation to a wrong page, so it is read as no map at all.
    """
    if not column:
        return None
    try:
        value = json.loads(column)
    except ValueError:
        return None
    if not isinstance(value, list) or len(value) < 2:
        return None
    starts: list[tuple[int, int]] = []
    for pair in value:
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and all(type(n) is int for n in pair)  # bool is an int subclass: not a page
        ):
            return None
        offset, page = pair
        if page < 1 or (starts and (offset <= starts[-1][0] or page <= starts[-1][1])):
            return None
        starts.append((offset, page))
    return tuple(starts) if starts[0][0] == 0 else None


def _folded(text: str) -> tuple[str, list[int]]:
    """``text`` lower-cased with each whitespace run as one space (none at the start), and
    for each character of the result the offset in ``text`` it came from."""
    out: list[str] = []
    origin: list[int] = []
    spaced = True  # leading whitespace is dropped
    for i, ch in enumerate(text):
        if ch.isspace():
            if not spaced:
                out.append(" ")
                origin.append(i)
            spaced = True
            continue
        spaced = False
        for folded in ch.lower():  # may be longer than one character ("İ"): keep each origin
            out.append(folded)
            origin.append(i)
    return "".join(out), origin


def quote_span(text: str, quote: str) -> tuple[int, int] | None:
    """``(start, end)`` of the first place ``text`` holds ``quote``, or None.

    Case and whitespace are ignored: a quote joins sentences with one space where the chunk
    has a line break or the blank line between two pages' paragraphs.
    """
    needle = _folded(quote)[0].rstrip()
    if not needle:
        return None
    haystack, origin = _folded(text)
    found = haystack.find(needle)
    if found < 0:
        return None
    return origin[found], origin[found + len(needle) - 1] + 1


def _page_at(starts: PageStarts, offset: int) -> int:
    page = starts[0][1]
    for begin, number in starts:
        if begin > offset:
            break
        page = number
    return page


def quote_pages(text: str, starts: PageStarts, quote: str) -> tuple[int, int | None] | None:
    """``(page, page_end)`` of ``quote`` in a chunk's ``text`` (``page_end`` None when the
    quote sits on one page), or None when the chunk does not contain the quote."""
    span = quote_span(text, quote)
    if span is None or not starts:
        return None
    first, last = _page_at(starts, span[0]), _page_at(starts, span[1] - 1)
    return first, (last if last != first else None)


Pages = tuple[int, int | None]
"""``(page, page_end)``: ``page_end`` None when one page."""


def _placed(source: Source, starts: PageStarts, quote: str) -> Pages | None:
    """The pages ``quote`` spans in ``source``'s chunk, or None when it is not there or the
    map puts it outside the chunk's own pages (then the map belongs to other text)."""
    if not source.text or source.page is None or source.page_end is None:
        return None
    pages = quote_pages(source.text, starts, quote)
    if pages is None:
        return None
    first, last = pages
    if not source.page <= first <= (last or first) <= source.page_end:
        return None
    return pages


def _on_pages(source: Source, pages: Pages) -> Source:
    return replace(source, page=pages[0], page_end=pages[1])


def narrow_source(source: Source, quote: str | None, starts: PageStarts | None) -> Source:
    """``source`` with ``page``/``page_end`` narrowed to the pages ``quote`` spans.

    Unchanged when there is nothing to narrow: no quote, no page map, a chunk on one page, a
    quote the chunk does not contain, or a map that disagrees with the chunk's own pages.
    """
    if not quote or not starts:
        return source
    pages = _placed(source, starts, quote)
    return source if pages is None else _on_pages(source, pages)


def _span(pages: Iterable[Pages]) -> Pages:
    """The pages from the first one of ``pages`` to the last."""
    spans = list(pages)
    first = min(page for page, _ in spans)
    last = max(end or page for page, end in spans)
    return first, (last if last != first else None)


def _narrow_occurrence(
    occurrence: Occurrence, source: Source, pages: Mapping[str, Pages | None]
) -> Occurrence:
    """``occurrence`` on the pages of its own quote, linking them (unchanged when it is not
    placed); the pages are kept for a source without a public URL too, whose marker links a
    signed file (``renderers.base``)."""
    placed = pages.get(occurrence.quote) if occurrence.quote else None
    if placed is None:
        return occurrence
    link = deep_link(_on_pages(source, placed), occurrence.quote) or occurrence.deep_link
    if (occurrence.page, occurrence.page_end, occurrence.deep_link) == (*placed, link):
        return occurrence
    return replace(occurrence, deep_link=link, page=placed[0], page_end=placed[1])


def narrow_citation(citation: Citation, lookup: PageLookup) -> Citation:
    """``citation`` with its source narrowed to the pages of its quotes, its deep link to
    match, and each of its occurrences linking the page of its own quote.

    The source spans every quote of the citation (its own and its markers'), so a source list
    names all the pages the answer relies on; when one of them is not in the chunk, it keeps
    the chunk's pages. Only a quoted citation of a chunk that crosses a page break asks
    ``lookup`` for a map.
    """
    source = citation.source
    if not citation.quote or source.page is None or source.page_end is None or not source.text:
        return citation
    starts = lookup(source)
    if not starts:
        return citation
    quotes = dict.fromkeys([citation.quote, *(o.quote for o in citation.occurrences if o.quote)])
    pages = {quote: _placed(source, starts, quote) for quote in quotes}
    placed = [p for p in pages.values() if p is not None]
    narrowed = source
    if len(placed) == len(pages):
        narrowed = _on_pages(source, _span(placed))
    occurrences = tuple(_narrow_occurrence(o, source, pages) for o in citation.occurrences)
    unchanged = all(new is old for new, old in zip(occurrences, citation.occurrences, strict=True))
    if narrowed == source and unchanged:
        return citation
    link = citation.deep_link
    if narrowed != source:
        link = deep_link(narrowed, citation.quote) or link
    return replace(citation, source=narrowed, deep_link=link, occurrences=occurrences)


def narrow_answer(answer: Answer, lookup: PageLookup) -> Answer:
    """``answer`` with every citation narrowed by :func:`narrow_citation`."""
    citations = tuple(narrow_citation(c, lookup) for c in answer.citations)
    if all(new is old for new, old in zip(citations, answer.citations, strict=True)):
        return answer
    return replace(answer, citations=citations)
