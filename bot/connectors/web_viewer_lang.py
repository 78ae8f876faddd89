"""The language of a file shown on the viewer page, for its ``lang`` attribute.

Screen readers pick their voice from ``lang``: a German document read with an English voice is
hard to follow. The viewer page itself (its bar, its notes) is English, like the chat page, so
``<html lang>`` is :data:`VIEWER_LANG`; the document's ``<main>`` says the document's own
language when the file declares one: an HTML file's ``<html lang>`` (or ``xml:lang``). Markdown
and plain text declare none the index keeps, so they are read in the page's language.
"""

from __future__ import annotations

import contextlib
import re
from html.parser import HTMLParser

VIEWER_LANG = "en"
"""The language of the viewer page's own words (as of the chat page, ``chat_page.html.j2``)."""

# A BCP 47 tag as written in practice ("de", "pt-BR", "zh-Hant-TW"); anything else is ignored.
_LANG_TAG = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*")
_MAX_LANG_CHARS = 35
# The root element comes after the doctype and maybe comments, near the top of the file.
_HEAD_CHARS = 64 * 1024


class _RootSeenError(Exception):
    """Stops the parser at the first element."""


class _RootLanguage(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "html":
            values = dict(attrs)
            self.lang = values.get("lang") or values.get("xml:lang")
        raise _RootSeenError()  # only the root element can speak for the whole document


def clean_lang(value: str | None) -> str | None:
    """``value`` as a language tag (``en_US`` written ``en-US``), or None when it is not one."""
    if value is None:
        return None
    tag = value.strip().replace("_", "-")
    if len(tag) > _MAX_LANG_CHARS or not _LANG_TAG.fullmatch(tag):
        return None
    return tag


def html_language(markup: str) -> str | None:
    """The language an HTML document declares on its root element, if any."""
    parser = _RootLanguage()
    with contextlib.suppress(_RootSeenError):
        parser.feed(markup[:_HEAD_CHARS])
    return clean_lang(parser.lang)


def document_language(kind: str, text: str) -> str | None:
    """The language of a viewed file of ``kind`` (``"html"``, ``"markdown"``, ``"text"``)."""
    return html_language(text) if kind == "html" else None
