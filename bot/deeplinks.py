"""Deep links into a cited source: ``#page=N`` for PDFs, text fragments for web pages.

A text fragment (``#:~:text=``, https://wicg.github.io/scroll-to-text-fragment/) makes a browser
scroll to and highlight the quoted words. The spec reserves ``-``, ``,`` and ``&`` inside the
fragment, so every character outside the unreserved set is percent-encoded, those three
included. A quote longer than :data:`MAX_DIRECT_CHARS` uses the ``start,end`` form (its first
and last :data:`EDGE_WORDS` words, fewer when that is too long; for CJK, which has no spaces, its
first and last clause, cut where a browser sees a word end: :mod:`bot.cjk_fragment_terms`); a
fragment that would still be longer than :data:`MAX_FRAGMENT_CHARS` is left
out (the plain URL is better than a broken highlight). A quote from a Markdown source is
reduced to what a reader of the rendered page sees (:func:`visible_text`) first: the browser
searches the page's text, where ``**``, backticks and ``[text](url)`` targets no longer appear,
a wrapped line reads as a space and a hard line break (a ``<br>``) only as a line break.
A quoted row of a pipe table (a Markdown table, or an HTML one as the reader holds it) links
its first cell instead: the page shows a ``<table>``, whose cells a text fragment cannot reach
across (:mod:`bot.table_rows`).
A PDF link opens the source's ``page``: for a passage that spans pages, the Assistant first
narrows the source to the page its quote is on (:mod:`bot.knowledge.page_spans`).

A cited file without a public URL is linked through a signed ``/files/`` URL, which shows a
Markdown, text or HTML file on a reading page (:mod:`bot.connectors.web_file_viewer`);
:func:`file_link` gives that URL the same ``#page=N`` or text fragment.

Plain function, no I/O: the resolver, the renderers and grounding all call :func:`deep_link`.
"""

from __future__ import annotations

import html
import mimetypes
import re
from urllib.parse import quote as percent_encode

from bot.cjk_fragment_terms import terms as cjk_terms
from bot.markdown import Token, parse
from bot.models import Source
from bot.table_rows import row_target

MAX_DIRECT_CHARS = 80
EDGE_WORDS = 4
# Room for a CJK sentence of 65 characters (nine encoded each) whole, and a link every channel
# keeps with its highlight: a Slack source entry holds 2,000 characters, a Discord message 2,000
# (a source list past 10,000 drops highlights), an email reference any length.
MAX_FRAGMENT_CHARS = 600
# Kana, Han and Hangul (the core of bot.knowledge.cjk's ranges): importing that package would
# load the index (SQLite), which the dependency rule keeps out of this module.
_CJK_CHAR = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff]")
_TEXT_TYPES = frozenset({"text/html", "application/xhtml+xml", "text/plain", "text/markdown"})
# Inline tokens join without a space ("**forty**-two"); any other token is a block of its own.
_INLINE = frozenset(
    {
        "text",
        "emphasis",
        "strong",
        "codespan",
        "link",
        "strikethrough",
        "softbreak",
        "linebreak",
        "inline_html",
    }
)
_TAG = re.compile(r"<[^>]*>")
_BREAK = re.compile(r"<br\b", re.IGNORECASE)
# Where _visible found a hard line break (whitespace around it is not the reader's to see).
_HARD_BREAK = "\x00"


def is_pdf(source: Source) -> bool:
    """True when the source is a PDF (by media type, or by a URL or file name ending .pdf)."""
    if source.media_type:
        return source.media_type.split(";")[0].strip().lower() == "application/pdf"
    for name in (source.url, source.filename, source.path):
        if name and _path_of(name).lower().endswith(".pdf"):
            return True
    return False


def _path_of(name: str) -> str:
    return name.split("#", 1)[0].split("?", 1)[0]


def encode_fragment_text(text: str) -> str:
    """Percent-encode one text-fragment term (``-``, ``,``, ``&`` and spaces included)."""
    return percent_encode(text, safe="").replace("-", "%2D")


def text_fragment(quote: str) -> str | None:
    """The ``:~:text=`` directive for ``quote`` (without ``#``), or None when unusable."""
    return _fragment(quote.split())


def _markdown_fragment(quote: str) -> str | None:
    """:func:`text_fragment` of the words a reader sees of a Markdown ``quote``, where a hard
    line break stays one (Chromium matches a ``<br>`` only as a line break, not as a space)."""
    return _fragment([word for word in visible_text(quote).split(" ") if word])


def _fragment(words: list[str]) -> str | None:
    """The directive for ``words`` (a word may hold a line break: ``"this\\nline"``): the
    first of its forms that fits :data:`MAX_FRAGMENT_CHARS`, else None."""
    if not words:
        return None
    whole = " ".join(words)
    for start, end in _word_forms(words):
        directive = _directive_of(start, end)
        if directive is not None:
            return directive
    if not _CJK_CHAR.search(whole):
        return None
    # a CJK clause has no spaces to take edge words from
    found = cjk_terms(
        whole, lambda start, end: _directive_of(start, end) is not None, MAX_FRAGMENT_CHARS
    )
    return None if found is None else _directive_of(*found)


def _word_forms(words: list[str]) -> list[tuple[str, str | None]]:
    """The quote whole (when short), then its first and last :data:`EDGE_WORDS` words, then 3,
    2 and 1: six encoded characters a Cyrillic or Greek letter, twelve a vocalised Arabic one,
    make an ordinary sentence's four edge words too long."""
    whole = " ".join(words)
    forms: list[tuple[str, str | None]] = []
    if len(whole) <= MAX_DIRECT_CHARS or len(words) <= 2 * EDGE_WORDS:
        forms.append((whole, None))
    for count in range(EDGE_WORDS, 0, -1):
        start, end = " ".join(words[:count]), " ".join(words[-count:])
        # the browser ends the highlight at the end term's first match after the start term:
        # a shorter end term than usual must not be found before the quote's end
        repeated = whole.find(end, len(start)) != len(whole) - len(end)
        if 2 * count < len(words) and not (count < EDGE_WORDS and repeated):
            forms.append((start, end))
    return forms


def _directive_of(start: str, end: str | None) -> str | None:
    """``:~:text=start[,end]``, or None when longer than :data:`MAX_FRAGMENT_CHARS`."""
    value = encode_fragment_text(start)
    if end is not None:
        value += "," + encode_fragment_text(end)
    directive = f":~:text={value}"
    return directive if len(directive) <= MAX_FRAGMENT_CHARS else None


def without_text_fragment(url: str) -> str:
    """``url`` without its quote highlight (a ``:~:text=`` directive), other fragments kept.

    The inverse of :func:`deep_link`'s text fragment: the first thing a renderer gives up when
    a source entry must be shortened."""
    address, hash_sign, fragment = url.partition("#")
    if not hash_sign or ":~:" not in fragment:
        return url
    kept = fragment.split(":~:", 1)[0]
    return f"{address}#{kept}" if kept else address


def visible_text(markdown: str) -> str:
    """The words a reader sees of ``markdown`` once it is rendered: emphasis marks, backticks,
    link targets, images, list markers, HTML tags and footnote references gone, one space
    between words, a soft line break a space too, and a hard one (two spaces or a backslash
    before the newline, or ``<br>``) a ``"\\n"``, as the browser reads the ``<br>`` it becomes."""
    lines = (" ".join(line.split()) for line in _visible(parse(markdown)).split(_HARD_BREAK))
    return "\n".join(line for line in lines if line)


def _visible(tokens: list[Token]) -> str:
    out: list[str] = []
    for token in tokens:
        kind = token["type"]
        if kind in ("image", "citation"):
            continue  # alt text and footnote numbers are not searchable page text
        if kind == "softbreak":
            text = " "  # a line wrapped inside a paragraph reads as a space
        elif kind == "linebreak":
            text = _HARD_BREAK
        elif kind == "inline_html":
            # A tag shows nothing ("<b>card</b>." reads "card."), a <br> a line break.
            text = _HARD_BREAK if _BREAK.match(str(token.get("raw", ""))) else ""
        elif kind == "block_html":
            text = _TAG.sub(" ", str(token.get("raw", "")))
        elif "children" in token:
            text = _visible(token["children"])
        else:
            text = html.unescape(str(token.get("raw", "")))
        out.append(text if kind in _INLINE else f" {text} ")
    return "".join(out)


def deep_link(source: Source, quote: str | None = None) -> str | None:
    """A link to the exact place of ``source``: its PDF page, or the quoted words on the page.

    None when the source has no public URL, or when there is nothing more precise than the URL
    itself (a PDF without a page, a web page without a quote).
    """
    if not source.url or (not quote and source.page is None):
        return None  # no place more precise than the URL itself (the common case: no quote)
    if not source.url.lower().startswith(("http://", "https://")):
        return None
    base = source.url.split("#", 1)[0]
    if is_pdf(source):
        return f"{base}#page={source.page}" if source.page is not None else None
    media = (source.media_type or "text/html").split(";")[0].strip().lower()
    if media not in _TEXT_TYPES or not quote:
        return None
    directive = _directive(quote, media)
    return f"{base}#{directive}" if directive else None


def _file_media(source: Source) -> str:
    if source.media_type:
        return source.media_type.split(";")[0].strip().lower()
    for name in (source.filename, source.path):
        guessed = mimetypes.guess_type(_path_of(name))[0] if name else None
        if guessed:
            return guessed
    return ""


def file_link(url: str, source: Source, quote: str | None = None) -> str:
    """The signed ``/files/`` ``url`` of ``source``'s file, opening at the cited place.

    ``#page=N`` for a PDF with a page; for a Markdown, text or HTML file (shown on the viewer
    page) with a quote, the text fragment of the words a reader sees; else ``url`` unchanged.
    """
    base = url.split("#", 1)[0]
    if is_pdf(source):
        return f"{base}#page={source.page}" if source.page is not None else url
    media = _file_media(source)
    if not quote or media not in _TEXT_TYPES:
        return url
    directive = _directive(quote, media)
    return f"{base}#{directive}" if directive else url


def _directive(quote: str, media: str) -> str | None:
    """The text directive for ``quote`` on a page of type ``media``: a quoted table row's first
    cell (:func:`bot.table_rows.row_target`), else the quote's words as the page shows them."""
    target = row_target(quote)
    if target is not None:
        quote = target
    return _markdown_fragment(quote) if media == "text/markdown" else text_fragment(quote)
