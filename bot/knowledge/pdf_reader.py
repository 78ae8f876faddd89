"""PDF reader (pypdf): one or more blocks per page, pages numbered from 1.

An encrypted PDF that does not open with an empty password, a damaged file, or one with no
extractable text (a scan) is Unreadable with the reason; one where most pages have no text (a
scan with a typed cover page) is indexed with a warning naming those pages. Paragraphs and
headings are rebuilt from the extracted lines (:mod:`bot.knowledge.pdf_lines`) by
:func:`paragraphs`, and every heading has text under it on its own page; page furniture (running
headers and footers, bare page numbers) is removed first (:mod:`bot.knowledge.pdf_page_edges`),
and a word hyphenated across a page break is joined after (:func:`join_page_breaks`), then the
sentence a page ends in the middle of (:func:`bot.knowledge.pdf_page_edges.join_sentences`).
"""

from __future__ import annotations

import io
import itertools
import logging
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.knowledge.document import Block, Document, Unreadable
from bot.knowledge.pdf_lines import SOFT_HYPHEN, clean_lines, join_lines, vocabulary
from bot.knowledge.pdf_page_edges import (
    DANGLING_WORDS,
    continues,
    join_sentences,
    strip_furniture,
)

if TYPE_CHECKING:
    from pypdf import PdfReader

log = logging.getLogger(__name__)

HEADING_RATIO = 0.6
"""A heading is shorter than this share of the document's typical full line."""
HEADING_MAX_CHARS = 60
# A line under this share of the page's widest line is clearly not a full one.
_FULL_LINE = 0.8
_FINAL_PUNCTUATION = (".", ",", ";", ":", "!", "?")
_PLACEHOLDER_TITLES = frozenset(("untitled", "untitled document", "title", "document", "none"))
_GENERATOR_TITLE = re.compile(r"^Microsoft (?:Word|PowerPoint|Excel) - ", re.IGNORECASE)
_FILE_NAME_TITLE = re.compile(
    r"^[^/\\]+\.(?:docx?|pptx?|xlsx?|odt|rtf|txt|md|html?|pdf|indd|tex|dvi|ps)$", re.IGNORECASE
)


def typical_width(lengths: list[int]) -> float:
    """The length of a full line: the upper quartile of the non-empty lines' lengths.

    Not the maximum, which one long URL or table row would inflate, and not the median, which
    a short page (a heading and one short sentence) pulls down to the heading's own length.
    """
    ordered = sorted(n for n in lengths if n)
    if not ordered:
        return 0.0
    return float(ordered[math.ceil(0.75 * (len(ordered) - 1))])


def _heading_like(line: str, limit: float) -> bool:
    """Short, without final punctuation, with a letter, not cut off after "the" or "of"."""
    if len(line) >= limit or line.endswith(_FINAL_PUNCTUATION):
        return False
    if not any(ch.isalpha() for ch in line):
        return False  # a number or a symbol alone is a table cell or furniture
    return line.rsplit(" ", 1)[-1].lower() not in DANGLING_WORDS


def paragraphs(
    text: str,
    typical: float | None = None,
    words: frozenset[str] | None = None,
    before: str = "",
) -> list[tuple[str, bool]]:
    """Rebuild paragraphs from a page's extracted lines; ``(text, is_heading)`` pairs.

    PDF text has no paragraph marks, so: a blank line ends a paragraph; so does a line that ends
    a sentence while clearly shorter than the page's full lines, or one that ends a sentence
    and is followed by a heading-like line. A heading is a short line
    (under :data:`HEADING_RATIO` of ``typical``, the document's full line length; this page's
    when not given) without final punctuation at the start of a paragraph. Text is never lost
    to a false heading: a short line followed by one that starts in lower case continues its
    sentence ("… twelve volt" / "supply with …"), and of a run of short lines only the last of
    at most two is a heading, the others staying text, since a longer run is a list or a table.
    A short line with nothing under it on the page (a contact line ending the page) is text:
    as a heading it would name the next page's passage, or, ending the file, nothing. A heading
    opening the page stays one above a sentence in lower case when it was plainly set apart
    (:func:`_set_apart`) and ``before``, the last line of the page before, does not run on into
    it (:func:`bot.knowledge.pdf_page_edges.continues`: "approved by the" / "Site Manager").
    ``words``, the document's :func:`vocabulary` (this page's when not given), tells a word
    hyphenated at a line break from a compound (:func:`join_lines`).
    """
    lines = clean_lines(text)
    if words is None:
        words = vocabulary(text)
    width = max((len(line) for line in lines), default=0)
    if typical is None:
        typical = typical_width([len(line) for line in lines])
    limit = min(HEADING_MAX_CHARS, HEADING_RATIO * typical)
    out: list[tuple[str, bool]] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            out.append((join_lines(current, words), False))
            current.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if not line:
            flush()
            i += 1
            continue
        if current and current[-1].endswith((".", "!", "?")) and _heading_like(line, limit):
            flush()  # a full last line of a paragraph, then a heading ("… a full day." "Disposal")
        if not current and _heading_like(line, limit):
            opens_page = not out  # only blank lines before it on this page
            run, i = _short_run(lines, i, limit)
            following = next((line for line in lines[i:] if line), "")
            flat = [line for group in run for line in group]
            # nothing under it on this page: a heading there would name the next page's
            # passage, or none at all at the end of the file, and its text would be lost
            heading = len(flat) <= 2 and bool(following)
            if following[:1].islower() and not (
                heading
                and opens_page
                and not continues(before, flat[0])
                and _set_apart(flat[-1], following, width)
            ):
                current.extend(flat)  # wrapped prose
                continue
            if heading:
                out.extend((line, False) for line in flat[:-1])
                out.append((flat[-1], True))
            else:
                out.extend((join_lines(group, words), False) for group in run)
            continue
        current.append(line)
        if line.endswith((".", "!", "?", ":")) and len(line) < _FULL_LINE * width:
            flush()
        i += 1
    flush()
    return out


def join_page_breaks(
    pages: list[list[tuple[str, bool]]], words: frozenset[str] = frozenset()
) -> list[list[tuple[str, bool]]]:
    """Each page's :func:`paragraphs`, with a word hyphenated across a page break joined by
    the rule of a line break (:func:`join_lines`): "configu-" ending page 3 and "ration of"
    opening page 4 are "configuration" on page 3, "of" on page 4. The word belongs to the page
    it starts on, so a citation's page stays right. Only a paragraph (never a heading) ending
    one page and one opening the next are joined."""
    out = [list(page) for page in pages]
    for before, after in itertools.pairwise(out):
        if not before or not after or before[-1][1] or after[0][1]:
            continue
        last, first = before[-1][0], after[0][0]
        if not last.endswith("-"):
            continue
        word, _, rest = first.partition(" ")
        joined = join_lines([last, word], words)
        # join_lines drops soft hyphens wherever it joins or not: compared without them, so a
        # word that stays apart ("a\u00adb 2023-" / "2024") stays on its page too
        if joined == f"{last} {word}".replace(SOFT_HYPHEN, ""):
            continue  # not a word broken in two: "2023-" / "2024", "Co-" / "Operation"
        before[-1] = (joined, False)
        if rest.strip():
            after[0] = (rest.strip(), False)
        else:
            del after[0]
    return out


def _set_apart(line: str, following: str, width: int) -> bool:
    """Whether short ``line``, opening a page above ``following`` (which starts in lower
    case), is a heading rather than the first line of a wrapped sentence: it starts with a
    capital or a digit, and the next line's first word would have fitted on it with room to
    spare (under :data:`_FULL_LINE` of ``width``, the page's widest line). A wrapped line
    breaks only where the next word does not fit ("2. Storage" / "the walk-in freezer …" was
    ended on purpose); one ending in a hyphen breaks a word ("Set Restart=on-" / "failure")."""
    if not (line[:1].isupper() or line[:1].isdigit()) or line.endswith(("-", SOFT_HYPHEN)):
        return False
    return len(line) + 1 + len(following.split(" ", 1)[0]) < _FULL_LINE * width


def _short_run(lines: list[str], start: int, limit: float) -> tuple[list[list[str]], int]:
    """The heading-like lines from ``start`` on, grouped where blank lines part them, and the
    index after the run."""
    groups: list[list[str]] = [[]]
    i = start
    while i < len(lines):
        line = lines[i]
        if not line:
            if groups[-1]:
                groups.append([])
        elif _heading_like(line, limit):
            groups[-1].append(line)
        else:
            break
        i += 1
    return [group for group in groups if group], i


PageCallback = Callable[[int, int], None]
"""Called with ``(page, pages)`` before each page is read: progress, and a place to stop."""


def read_pdf(path: Path, data: bytes, on_page: PageCallback | None = None) -> Document:
    """Extract each page's text as paragraph blocks tagged with the page number.

    ``on_page`` runs before each page; what it raises (Ctrl-C) ends the read at once, so a
    thousand-page manual does not hold up a stop.
    """
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    if b"%PDF-" not in data[:1024]:  # where readers look for it; an error page saved as .pdf
        raise Unreadable("not a PDF (no %PDF- header; an HTML page or other file named .pdf?)")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            # AES files (Word's and Acrobat's "restrict editing") open with the empty password
            # thanks to the cryptography package (our pypdf[crypto] dependency)
            try:
                opened = reader.decrypt("")
            except (PyPdfError, NotImplementedError) as exc:
                raise Unreadable(f"encrypted PDF ({exc})") from None
            if not opened:
                raise Unreadable("encrypted PDF (needs a password)")
        title = None
        try:
            meta = reader.metadata
            title = _own_title(str(meta.title)) if meta is not None and meta.title else None
        except Exception:  # a title is a nicety: a damaged info dictionary must not cost the file
            title = None
        count = len(reader.pages)
    except Unreadable:
        raise
    except Exception as exc:  # pypdf fails on damaged files in many ways (IndexError, …)
        raise Unreadable(f"damaged PDF ({exc.__class__.__name__}: {exc})") from None
    if not count:  # not a scan without text: nothing to say "a scanned PDF?" of
        raise Unreadable("empty PDF (it has no pages)")
    pages, failed = _page_lines(reader, count, on_page)
    if failed and len(failed) == count:
        raise Unreadable(f"damaged PDF (no page could be read: {failed[0][1]})")
    pages = strip_furniture(pages)
    # One typical width for the whole file: a page with little text on it says little about
    # how long a full line is.
    typical = typical_width([len(line) for lines in pages for line in lines])
    # and one vocabulary: whether "on-" / "failure" is a compound may be told on another page.
    # Each page's last line is next to the next page's first, so that a word broken across
    # the break ("configu-" / "ration") is not taken for two words the document writes.
    words = vocabulary("\n".join("\n".join(lines).strip("\n") for lines in pages))
    blocks: list[Block] = []
    section: str | None = None
    texts: list[list[tuple[str, bool]]] = []
    before = ""  # the last line of the page before: a page may go on with its sentence
    for lines in pages:
        texts.append(paragraphs("\n".join(lines), typical, words, before))
        before = next((line for line in reversed(lines) if line), "")
    joined = join_sentences(join_page_breaks(texts, words))
    for number, page in enumerate(joined, start=1):
        for paragraph, is_heading in page:
            if is_heading:
                section = paragraph
            else:
                blocks.append(Block(paragraph, section=section, page=number))
    if not blocks:
        raise Unreadable("no extractable text (a scanned PDF?)")
    return Document(
        title=title or path.name,
        media_type="application/pdf",
        blocks=blocks,
        pages=len(pages),
        warnings=_failed_pages(failed) + _pages_without_text(pages, failed),
    )


def _own_title(title: str) -> str | None:
    """The metadata title, unless it is what a tool wrote in its place: "Microsoft Word -
    guide.docx", "Untitled", a file name. A citation titled so helps nobody; the PDF's own
    file name is better."""
    title = " ".join(title.split())
    if not title or title.lower() in _PLACEHOLDER_TITLES:
        return None
    if _GENERATOR_TITLE.match(title) or _FILE_NAME_TITLE.search(title):
        return None
    return title


def _page_lines(
    reader: PdfReader, count: int, on_page: PageCallback | None = None
) -> tuple[list[list[str]], list[tuple[int, str]]]:
    """Each page's lines, and ``(page, reason)`` for each page pypdf could not extract.

    pypdf's text extraction raises on some damaged pages (a font's broken character map, an
    operator short of operands); such a page is left empty, so the rest of the file is kept.
    """
    from pypdf.errors import DependencyError

    pages: list[list[str]] = []
    failed: list[tuple[int, str]] = []
    for number in range(1, count + 1):
        if on_page is not None:
            on_page(number, count)
        try:
            text = reader.pages[number - 1].extract_text() or ""
        except DependencyError:
            raise  # no page of the file can be read: the whole file is the matter
        except Exception as exc:  # a damaged page must not cost the whole file
            failed.append((number, f"{exc.__class__.__name__}: {exc}"[:120]))
            text = ""
        pages.append(clean_lines(text.replace("\r\n", "\n").replace("\r", "\n")))
    return pages, failed


def _page_ranges(numbers: list[int]) -> str:
    """``[2, 3, 4, 7]`` as "2-4, 7"."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _pages_without_text(pages: list[list[str]], failed: list[tuple[int, str]]) -> tuple[str, ...]:
    """A warning when at least half of the pages (two or more) have no text: images of pages,
    as a scanner makes them, which search cannot find. A blank page or a full-page figure
    here and there is normal and says nothing."""
    unread = {number for number, _ in failed}
    empty = [n for n, lines in enumerate(pages, start=1) if n not in unread and not any(lines)]
    if len(empty) < 2 or 2 * len(empty) < len(pages):
        return ()
    return (
        f"{len(empty)} of {len(pages)} pages have no text (scanned images?) and cannot be "
        f"found by search: pages {_page_ranges(empty)}",
    )


def _failed_pages(failed: list[tuple[int, str]]) -> tuple[str, ...]:
    if not failed:
        return ()
    numbers = ", ".join(str(number) for number, _ in failed[:10])
    more = f" and {len(failed) - 10} more" if len(failed) > 10 else ""
    label, verb = ("page", "is") if len(failed) == 1 else ("pages", "are")
    return (f"{label} {numbers}{more} could not be read and {verb} left out ({failed[0][1]})",)
