"""The edges of PDF pages: furniture dropped, and a sentence that runs on to the next page joined.

:func:`strip_furniture` removes running headers and footers and bare page numbers from each
page's lines; :func:`join_sentences` joins the sentence a page ends in the middle of with the
rest of it at the top of the next page, so that a passage quotes it whole ("… contacted before
the end of the week.") rather than cut at the break. Used by :mod:`bot.knowledge.pdf_reader`.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

from bot.sentence_rules import stop_ends_sentence

# A line ending in one of these words is the first part of a wrapped sentence, never a heading
# nor the end of a sentence.
DANGLING_WORDS = frozenset(
    """
    a an the and or nor but of to in on at by for from with as is are was were be that
    which its their your our this these
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# After these too a sentence cannot end (left out of DANGLING_WORDS so as not to change how
# headings are told).
_CONTINUING_WORDS = DANGLING_WORDS | frozenset(
    """
    than into onto via per if whether because although whose every each such both either
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# "7", "- 7 -", "Page 7", "7 / 12", "Page 7 of 12": a page number alone on a line.
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-–—]?\s*\d{1,4}\s*[-–—]?(?:\s*(?:/|of)\s*\d{1,4})?$", re.IGNORECASE
)
_EDGE_LINES = 2  # how many lines at the top and at the bottom of a page may be furniture
_MIN_FURNITURE_PAGES = 3

# A sentence ends in a full stop, perhaps inside closing quotes, brackets or emphasis.
_ENDS_SENTENCE = re.compile(r"[.!?:。！？][\"'”’)\]*_]*$")
# "- item", "• item", "1. item", "(a) item", "iv) item": a list item, never a sentence's rest.
_LIST_ITEM = re.compile(r"^(?:[-–—•▪◦·*+]|\(?(?:\d{1,3}|[A-Za-z]|[ivxIVX]{1,5})[.)])\s")
# Where the first sentence of a paragraph may end: after a full stop (and its closing marks)
# followed by a space and a capital or a digit; a "." there ends it only by the rule the
# answerer and the claim splitter share (bot.sentence_rules: not "Dr. Weber", "e.g. Paris",
# "J. Smith", "am 3. Oktober", but "lot B. The garage").
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]*_]*(?=\s+[\"'“‘(\[`*]?[A-Z0-9])")


def strip_furniture(pages: list[list[str]]) -> list[list[str]]:
    """The pages' lines without running headers, footers and bare page numbers.

    Only the first and last :data:`_EDGE_LINES` non-empty lines of a page are candidates. A
    page number ("7", "Page 7 of 12") there always goes. A line goes when the same line sits at
    an edge of most pages that have text, and of at least :data:`_MIN_FURNITURE_PAGES` of them:
    below that, a repeated edge line is as likely a heading that continues onto the next page.
    A short document, or a header printed on a few pages only, is caught by
    :func:`_repeated_on_next_page`.
    """

    def edges(lines: list[str]) -> set[int]:
        filled = [i for i, line in enumerate(lines) if line]
        return set(filled[:_EDGE_LINES] + filled[-_EDGE_LINES:])

    with_text = [lines for lines in pages if any(lines)]
    seen: Counter[str] = Counter()
    for lines in with_text:
        seen.update({lines[i] for i in edges(lines)})
    least = max(_MIN_FURNITURE_PAGES, len(with_text) // 2 + 1)
    repeated = {line for line, count in seen.items() if count >= least}
    running = _repeated_on_next_page(pages)
    out: list[list[str]] = []
    for number, lines in enumerate(pages):
        drop = {i for i in edges(lines) if lines[i] in repeated or _PAGE_NUMBER.match(lines[i])}
        drop |= running[number]
        out.append([line for i, line in enumerate(lines) if i not in drop])
    return out


def _repeated_on_next_page(pages: list[list[str]]) -> list[set[int]]:
    """For each page, the indexes of its lines that are a running header or footer because the
    next or the previous page with text has the same line in the same place: the first line
    (or first two) of both, or the last line (or last two), bare page numbers left out.

    A header goes from the top of every page but the first of such a run: there it may be the
    document's title, or a heading that the next page repeats ("Installation" at the top of
    pages 4 and 5), and either way it names what follows. A footer goes from the bottom of every
    page of the run, since it ends a page, where nothing is a heading; only pages with more
    than twice :data:`_EDGE_LINES` lines take part, so that a page of a few lines (a heading
    and a sentence) keeps its last line. No page loses its only line. Lines must match in
    place, not merely be near the edge of both pages: a reference manual ends page after page
    with the same parameter's description one line above the last, and that is text.
    """
    drop: list[set[int]] = [set() for _ in pages]
    rows = [
        [i for i, line in enumerate(lines) if line and not _PAGE_NUMBER.match(line)]
        for lines in pages
    ]
    # pages without text (a full-page figure) do not part a run
    with_text = [n for n, found in enumerate(rows) if found]
    for before, after in itertools.pairwise(with_text):
        top = _same_from_edge(pages[before], rows[before], pages[after], rows[after])
        drop[after] |= set(top)
        if min(len(rows[before]), len(rows[after])) > 2 * _EDGE_LINES:
            up_before, up_after = rows[before][::-1], rows[after][::-1]
            drop[before] |= set(_same_from_edge(pages[after], up_after, pages[before], up_before))
            drop[after] |= set(_same_from_edge(pages[before], up_before, pages[after], up_after))
    for number, found in enumerate(rows):
        if drop[number] and not set(found) - drop[number]:
            drop[number] = set()  # a page that is all repeats is text (a slide's title alone)
    return drop


def _same_from_edge(
    other: list[str], other_rows: list[int], lines: list[str], rows: list[int]
) -> list[int]:
    """The indexes (of ``lines``) of the lines from the edge inward, at most
    :data:`_EDGE_LINES`, that ``other`` has in the same place; ``rows`` and ``other_rows`` list
    each page's lines from that edge inward."""
    same: list[int] = []
    for mine, theirs in zip(rows[:_EDGE_LINES], other_rows[:_EDGE_LINES], strict=False):
        if lines[mine] != other[theirs]:
            break
        same.append(mine)
    return same


def continues(last: str, first: str) -> bool:
    """Whether paragraph ``first``, opening a page, is the rest of the sentence that paragraph
    ``last`` ends the page before in the middle of.

    ``last`` must not end a sentence (a full stop or colon, perhaps inside quotes or brackets),
    and ``first`` must not be a list item ("- ", "2. ", "(b) "). Then ``first`` goes on with the
    sentence when it starts in lower case ("before" / "the end of the week."), or, starting in
    upper case or with a digit, when ``last`` ends where no sentence can end: after a comma, a
    dash or a word such as "the", "of" or "and" ("approved by the" / "Site Manager.").
    """
    last, first = last.rstrip(), first.lstrip()
    if not last or not first or _ENDS_SENTENCE.search(last) or _LIST_ITEM.match(first):
        return False
    if first[0].islower():
        return True
    if not (first[0].isupper() or first[0].isdigit()):
        return False
    if last.endswith((",", "–", "—")):
        return True
    return last.rsplit(" ", 1)[-1].lower() in _CONTINUING_WORDS


def first_sentence(text: str) -> tuple[str, str]:
    """``text`` cut after its first sentence: ``(sentence, rest)``; the whole of it and ""
    when no sentence ends in it (or only at its very end). A full stop before a capital ends
    it unless it closes an abbreviation, an initial or a date's ordinal
    (:func:`bot.sentence_rules.stop_ends_sentence`): "lot B. The garage …" ends after "B."."""
    for match in _SENTENCE_END.finditer(text):
        if stop_ends_sentence(text, match.start()):
            return text[: match.end()], text[match.end() :].strip()
    return text, ""


def join_sentences(pages: list[list[tuple[str, bool]]]) -> list[list[tuple[str, bool]]]:
    """Each page's ``(text, is_heading)`` paragraphs, with a sentence that a page ends in the
    middle of completed from the top of the next page (:func:`continues`).

    The rest of the sentence, up to its full stop, moves to the end of the page before: a
    sentence belongs to the page it starts on, where its page link opens, as a word hyphenated
    across a page break does; the rest of that paragraph stays on its own page, so a quote from
    it cites that page. A heading on either side of the break is never joined (a product
    name in lower case, "citecast runs as …", may open a section), and a page without
    paragraphs (a full-page figure) parts the pages on either side of it.
    """
    out = [list(page) for page in pages]
    for before, after in itertools.pairwise(out):
        if not before or not after or before[-1][1] or after[0][1]:
            continue
        last, first = before[-1][0], after[0][0]
        if not continues(last, first):
            continue
        sentence, rest = first_sentence(first.strip())
        before[-1] = (f"{last.rstrip()} {sentence}", False)
        if rest:
            after[0] = (rest, False)
        else:
            del after[0]
    return out
