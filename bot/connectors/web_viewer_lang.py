"""The language and direction of a file shown on the viewer page, for ``lang`` and ``dir``.

Screen readers pick their voice from ``lang``: a German document read with an English voice is
hard to follow. The viewer page itself (its bar, its notes) is English, like the chat page, so
``<html lang>`` is :data:`VIEWER_LANG`; the document's ``<main>`` says the document's own
language when the file declares one: an HTML file's ``<html lang>`` (or ``xml:lang``), a
Markdown file's front matter ``lang:`` (or ``language:``). A file that declares none (plain
text, most Markdown) is read in ``assistant.language`` when that is set, the language the chat
marks the answers citing it in, else in the page's.

A right-to-left document (Hebrew, Arabic) declares its direction the same way, ``<html
dir="rtl">``: the ``<main>`` carries it too, else the page's left-to-right direction would set
the whole document flush left, its full stops at the start of its lines. Markdown and plain
text declare none: each of their blocks reads in the direction of its own first letter instead
(:func:`bot.connectors.web_viewer_directions.with_block_directions`).
"""

from __future__ import annotations

import contextlib

from bot.knowledge.document import Unreadable
from bot.knowledge.front_matter import split_front_matter
from bot.language_tags import declared_language
from bot.lenient_html import LenientHTMLParser

VIEWER_LANG = "en"
"""The language of the viewer page's own words (as of the chat page, ``chat_page.html.j2``)."""

DIRECTIONS = frozenset({"ltr", "rtl", "auto"})
"""The values of ``dir`` HTML knows; any other is dropped (the browser would ignore it)."""
# The root element comes after the doctype and maybe comments, near the top of the file.
_HEAD_CHARS = 64 * 1024


class _RootSeenError(Exception):
    """Stops the parser at the first element."""


class _RootAttributes(LenientHTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang: str | None = None
        self.direction: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "html":
            values = dict(attrs)
            self.lang = values.get("lang") or values.get("xml:lang")
            self.direction = values.get("dir")
        raise _RootSeenError()  # only the root element can speak for the whole document


def clean_direction(value: str | None) -> str | None:
    """``value`` as a ``dir`` value (``ltr``, ``rtl`` or ``auto``, in lower case), or None."""
    direction = (value or "").strip().lower()
    return direction if direction in DIRECTIONS else None


def _root(markup: str) -> _RootAttributes:
    parser = _RootAttributes()
    with contextlib.suppress(_RootSeenError):
        parser.feed(markup[:_HEAD_CHARS])
    return parser


def html_language(markup: str) -> str | None:
    """The language an HTML document declares on its root element, if any."""
    return declared_language(_root(markup).lang)


def html_direction(markup: str) -> str | None:
    """The direction (``ltr``, ``rtl``, ``auto``) an HTML document declares on its root
    element, if any."""
    return clean_direction(_root(markup).direction)


def document_language(kind: str, text: str) -> str | None:
    """The language of a viewed file of ``kind`` (``"html"``, ``"markdown"``, ``"text"``)."""
    if kind == "html":
        return html_language(text)
    return markdown_language(text) if kind == "markdown" else None


def markdown_language(text: str) -> str | None:
    """The language a Markdown file's front matter declares (``lang:`` or ``language:``)."""
    try:
        # front matter opens the file: its head is enough, whatever the file's size
        meta, _ = split_front_matter(text[:_HEAD_CHARS])
    except Unreadable:
        return None
    return declared_language(meta.get("lang")) or declared_language(meta.get("language"))


def document_direction(kind: str, text: str) -> str | None:
    """The direction a viewed file of ``kind`` declares for the whole of it (HTML only)."""
    return html_direction(text) if kind == "html" else None
