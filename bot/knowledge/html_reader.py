"""HTML reader: visible text in blocks under the h1–h6 heading path.

Scripts, styles, other invisible elements (``hidden``, ``aria-hidden="true"``) and page
furniture (``<nav>``, ``<footer>`` and elements with their ARIA roles) are dropped; so are the
permalink marks (``¶``) that documentation generators append to headings. The title is the
first ``<title>`` of the head. A table row is one block, its cells joined by `` | ``.
``<link rel="canonical">`` (or ``<meta name="citecast:url">``) gives the public URL and
``<meta name="citecast:audience">`` the audience, like Markdown front matter.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from bot.knowledge.document import Block, Document, HeadingPath, plain_heading
from bot.knowledge.markdown_reader import audience_from

_BLOCK_TAGS = frozenset(
    (
        "p",
        "div",
        "li",
        "pre",
        "td",
        "th",
        "tr",
        "blockquote",
        "section",
        "article",
        "main",
        "aside",
        "header",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "table",
        "figure",
        "figcaption",
        "br",
        "hr",
        "form",
        "details",
        "summary",
    )
)
# Page furniture and invisible content: never indexed. ``nav`` and ``footer`` repeat on every
# page of a site ("Home Pricing …"), so indexing them makes them answers to every question.
_HIDDEN_TAGS = frozenset(
    ("script", "style", "template", "noscript", "svg", "iframe", "object", "nav", "footer")
)
# What may stand in <head>; any other tag (or text) starts the body, as in a browser, so a page
# that leaves out the optional </head> (or <head> and <body> altogether) still has a body.
_HEAD_TAGS = frozenset(
    ("html", "head", "title", "meta", "link", "style", "script", "base", "noscript", "template")
)
# ``hidden`` / aria-hidden="true" hide an element up to its end tag, so only elements whose end
# tag is required count: on a void element (no content) or one whose end tag may be left out
# (<p hidden>text<p>next), waiting for the end tag could hide the rest of the page.
_VOID_OR_OPTIONAL_END = frozenset(
    """
    area base br col embed hr img input link meta source track wbr p li dt dd tr td th
    thead tbody tfoot colgroup caption option optgroup rb rt rp
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# The whole text of a permalink anchor that documentation generators put in headings (Sphinx,
# MkDocs: <a class="headerlink">¶</a>); it is not part of the heading.
_PERMALINK_MARKS = frozenset(("", "¶", "§", "#", "🔗", "⚓", "⚓︎"))
_TRAILING_MARK = re.compile(r"\s*[¶§🔗⚓]\ufe0e?$")
_HEADINGS = {f"h{n}": n for n in range(1, 7)}


# The ARIA roles of <nav> and <footer>, and of a search box: Sphinx's default theme writes its
# sidebar (every page's table of contents) as <div role="navigation">.
_FURNITURE_ROLES = frozenset(("navigation", "contentinfo", "search"))


def _hides(tag: str, values: dict[str, str]) -> bool:
    if tag in _HIDDEN_TAGS:
        return True
    if tag in _VOID_OR_OPTIONAL_END:
        return False
    if values.get("role", "").strip().lower() in _FURNITURE_ROLES:
        return True
    return "hidden" in values or values.get("aria-hidden", "").strip().lower() == "true"


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.headings = HeadingPath()
        self.title: str | None = None
        self.first_heading: str | None = None
        self.canonical: str | None = None
        self.meta_url: str | None = None
        self.audience: tuple[str, ...] | None = None
        self._text: list[str] = []
        self._head = True  # <head> is implied until the body starts
        self._hiding: tuple[str, int] | None = None  # the hidden element's tag, its nesting
        self._in_title = False
        self._title_text: list[str] = []
        self._heading_level: int | None = None
        self._anchor: int | None = None  # where a link inside a heading starts in _text
        self._pre = 0
        # Inside a table row its cells are one block, "Team | $10": a cell alone ("$10") says
        # nothing when quoted, and a chunk boundary could fall between a row's cells.
        self._in_row = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "meta":
            name = values.get("name", "").lower()
            if name == "citecast:audience":
                self.audience = audience_from(values.get("content", ""))
            elif name == "citecast:url":
                self.meta_url = values.get("content") or None
        elif tag == "link" and "canonical" in values.get("rel", "").lower().split():
            self.canonical = values.get("href") or None
        if self._hiding is not None:
            hidden_tag, depth = self._hiding
            if tag == hidden_tag:
                self._hiding = (hidden_tag, depth + 1)
            return
        if tag not in _HEAD_TAGS:
            self._head = False
        if tag == "title":
            # Only the page's own title: an inline SVG's <title> names an icon.
            self._in_title = self._head and self.title is None
        elif _hides(tag, values):
            self._hiding = (tag, 1)
        elif tag in _HEADINGS:
            self._drop_open_cell()
            self._flush()
            self._heading_level = _HEADINGS[tag]
            # a heading in a cell: a table laid out as a page, not a row of data
            self._in_row = False
        elif tag == "a" and self._heading_level is not None:
            self._anchor = len(self._text)
        elif self._in_row and tag not in ("tr", "table", "pre"):
            if tag in ("td", "th") and "".join(self._text).strip():
                self._text.append(" | ")
            elif tag in _BLOCK_TAGS:
                self._text.append(" ")  # a <p> or <br> inside a cell
        elif tag in _BLOCK_TAGS:
            self._drop_open_cell()
            self._flush()
            if tag == "pre":
                self._pre += 1
            # a nested table ends the row around it: its own rows are blocks of their own
            self._in_row = tag == "tr"

    def handle_endtag(self, tag: str) -> None:
        if self._hiding is not None:
            hidden_tag, depth = self._hiding
            if tag == hidden_tag:
                self._hiding = (hidden_tag, depth - 1) if depth > 1 else None
            return
        if tag == "head":
            self._head = False
        elif tag == "title" and self._in_title:
            self._in_title = False
            self.title = " ".join("".join(self._title_text).split()) or None
        elif tag == "a" and self._anchor is not None:
            if "".join(self._text[self._anchor :]).strip() in _PERMALINK_MARKS:
                del self._text[self._anchor :]
            self._anchor = None
        elif tag in _HEADINGS and self._heading_level is not None:
            heading = _TRAILING_MARK.sub("", plain_heading("".join(self._text)))
            self._text.clear()
            self._anchor = None
            self.headings.enter(self._heading_level, heading)
            self.first_heading = self.first_heading or heading or None
            self._heading_level = None
        elif self._in_row and tag not in ("tr", "table", "pre"):
            return  # the end of a cell, or of a block inside one: the row goes on
        elif tag in _BLOCK_TAGS:
            self._flush(code=tag == "pre")
            if tag == "pre":
                self._pre = max(0, self._pre - 1)
            self._in_row = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title_text.append(data)
        elif self._hiding is None:
            if self._head and data.strip():
                self._head = False  # text can only be in the body: the head has ended
            self._text.append(data)

    def _drop_open_cell(self) -> None:
        # a cell that holds a table, code or a heading ends the row: no empty cell after it
        if self._text and self._text[-1] == " | ":
            self._text.pop()

    def _flush(self, code: bool = False) -> None:
        if self._heading_level is not None:
            return
        raw = "".join(self._text)
        self._text.clear()
        text = raw.strip("\n") if self._pre else re.sub(r"\s+", " ", raw).strip()
        if text.strip():
            self.blocks.append(Block(text, self.headings.path, kind="code" if code else "text"))


def read_html(text: str, filename: str) -> Document:
    """Parse an HTML page into blocks under their heading paths."""
    collector = _Collector()
    collector.feed(text)
    collector.close()
    collector._flush()
    return Document(
        title=collector.title or collector.first_heading or filename,
        media_type="text/html",
        blocks=collector.blocks,
        audience=collector.audience,
        url=collector.canonical or collector.meta_url,
    )
