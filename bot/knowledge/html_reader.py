"""HTML reader: visible text in blocks under the h1–h6 heading path.

Scripts, styles, other invisible elements (``hidden``, ``aria-hidden="true"``) and page
furniture (``<nav>``, ``<footer>`` and elements with their ARIA roles; a site's banner and
sidebars, and a Confluence export's chrome: see :mod:`bot.knowledge.html_chrome`) are
dropped; so are the permalink marks (``¶``) that documentation generators append to
headings. The title is the first ``<title>`` of the head. A table row is one block, its
cells joined by `` | ``. ``<link rel="canonical">`` (or ``<meta name="citecast:url">``) gives
the public URL, a relative one resolved against the page's ``<base href>`` as a browser does
(a malformed one is ignored), and ``<meta name="citecast:audience">`` the audience, like
Markdown front matter.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from html.parser import HTMLParser
from urllib.parse import urljoin

from bot.knowledge.document import Block, Document, HeadingPath, plain_heading
from bot.knowledge.html_chrome import (
    EXPORT_FOOTER_LINE,
    Landmarks,
    confluence_chrome,
    is_confluence_export,
)
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
# ``hidden`` / aria-hidden="true" hide an element up to its end tag. A void element has no
# content to hide. One whose end tag may be left out (<p hidden>text<p>next) is hidden up to
# where a browser ends it (:data:`_IMPLIED_END`): waiting for an end tag that never comes
# would hide the rest of the page.
_VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()  # noqa: SIM905
)
_OPTIONAL_END = frozenset(
    """
    p li dt dd tr td th thead tbody tfoot colgroup caption option optgroup rb rt rp
    """.split()  # noqa: SIM905 - a word list reads best as words
)
_P_CLOSERS = frozenset(
    """
    address article aside blockquote details dialog div dl fieldset figcaption figure footer
    form h1 h2 h3 h4 h5 h6 header hgroup hr main menu nav ol p pre search section table ul
    """.split()  # noqa: SIM905 - a word list reads best as words
)
_CELL_CLOSERS = frozenset(("td", "th", "tr", "tbody", "thead", "tfoot"))
_TABLE_PARTS = frozenset(("table", "tbody", "thead", "tfoot"))
_BLOCK_ENDS = frozenset(("body", "html", "td", "th", "li", "dd", "button")) | _P_CLOSERS
# For an element whose end tag may be left out (HTML's optional-tag rules): the start tags
# that end it, the end tags of the elements around it that end it too, and the elements that,
# open inside it, keep the first from ending it (a nested list's <li>).
_IMPLIED_END: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    "p": (_P_CLOSERS, _BLOCK_ENDS, frozenset()),
    "li": (
        frozenset(("li",)),
        frozenset(("ul", "ol", "menu")) | _BLOCK_ENDS,
        frozenset(("ul", "ol", "menu")),
    ),
    "dt": (frozenset(("dt", "dd")), frozenset(("dl",)) | _BLOCK_ENDS, frozenset(("dl",))),
    "dd": (frozenset(("dt", "dd")), frozenset(("dl",)) | _BLOCK_ENDS, frozenset(("dl",))),
    "tr": (frozenset(("tr", "tbody", "thead", "tfoot")), _TABLE_PARTS, frozenset(("table",))),
    "td": (_CELL_CLOSERS, _TABLE_PARTS | {"tr"}, frozenset(("table",))),
    "th": (_CELL_CLOSERS, _TABLE_PARTS | {"tr"}, frozenset(("table",))),
    "thead": (_TABLE_PARTS - {"table"}, _TABLE_PARTS | _BLOCK_ENDS, frozenset(("table",))),
    "tbody": (_TABLE_PARTS - {"table"}, _TABLE_PARTS | _BLOCK_ENDS, frozenset(("table",))),
    "tfoot": (_TABLE_PARTS - {"table"}, _TABLE_PARTS | _BLOCK_ENDS, frozenset(("table",))),
    "option": (
        frozenset(("option", "optgroup")),
        frozenset(("select", "datalist", "optgroup")) | _BLOCK_ENDS,
        frozenset(),
    ),
}
_OTHER_IMPLIED_END = (
    frozenset[str](),
    _BLOCK_ENDS | _TABLE_PARTS | {"tr", "select", "datalist", "ruby"},
    frozenset[str](),
)
# The text of an in-page link that is a footnote mark or a footnote's way back (Google Docs
# writes <sup><a href="#ftnt1">[1]</a></sup>, Pandoc and Sphinx "1", "[1]" and "↩").
_FOOTNOTE_MARK = re.compile(r"^(?:\[(?:\d{1,3}|[a-z]{1,2})\]|\d{1,3}|[*†‡]|↩\ufe0e?)$")
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
    if tag in _VOID:
        return False
    if values.get("role", "").strip().lower() in _FURNITURE_ROLES:
        return True
    return "hidden" in values or values.get("aria-hidden", "").strip().lower() == "true"


class _OpenTags:
    """The elements open inside a hidden element whose end tag may be left out: a stack, with
    counts, so that asking whether one is open stays cheap however deep a hostile page nests."""

    def __init__(self) -> None:
        self._stack: list[str] = []
        self._counts: Counter[str] = Counter()

    def push(self, tag: str) -> None:
        self._stack.append(tag)
        self._counts[tag] += 1

    def holds(self, tag: str) -> bool:
        return self._counts[tag] > 0

    def holds_any(self, tags: frozenset[str]) -> bool:
        return any(self._counts[tag] for tag in tags)

    def close(self, tag: str) -> None:
        """End ``tag`` (open) and the elements opened inside it and left open."""
        while self._stack:
            last = self._stack.pop()
            self._counts[last] -= 1
            if last == tag:
                return


class _Collector(HTMLParser):
    def __init__(self, page: str = "") -> None:
        super().__init__(convert_charrefs=True)
        self._confluence = is_confluence_export(page)  # then its chrome goes too
        self._landmarks = Landmarks(page)
        # A site's banner (see :mod:`bot.knowledge.html_chrome`): its tag and nesting. Only
        # its headings are read.
        self._muting: tuple[str, int] | None = None
        self.blocks: list[Block] = []
        self.headings = HeadingPath()
        self.title: str | None = None
        self.first_heading: str | None = None
        self.canonical: str | None = None
        self.meta_url: str | None = None
        self.base: str | None = None  # the first <base href>, as in a browser
        self.audience: tuple[str, ...] | None = None
        self._text: list[str] = []
        # ``_text`` holds more than spaces: known without joining it at each of a row's cells
        self._has_text = False
        self._head = True  # <head> is implied until the body starts
        self._hiding: tuple[str, int] | None = None  # the hidden element's tag, its nesting
        # When the hidden element's end tag may be left out: the elements open inside it
        self._inside_hidden: _OpenTags | None = None
        self._in_title = False
        self._title_text: list[str] = []
        self._heading_level: int | None = None
        self._anchor: int | None = None  # where a link inside a heading starts in _text
        self._local_link: int | None = None  # where a link to "#…" in the page starts in _text
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
        elif tag == "base" and self.base is None and values.get("href", "").strip():
            self.base = values["href"].strip()
        if self._hiding is not None and not self._ends_hiding_at_start(tag):
            hidden_tag, depth = self._hiding
            if self._inside_hidden is not None:
                if tag not in _VOID:
                    self._inside_hidden.push(tag)
            elif tag == hidden_tag:
                self._hiding = (hidden_tag, depth + 1)
            return
        if tag not in _HEAD_TAGS:
            self._head = False
        if self._confluence and tag == "td" and "pagebody" in values.get("class", "").split():
            self._in_row = False  # the old export template lays the page out in one cell
        if tag == "title":
            # Only the page's own title: an inline SVG's <title> names an icon.
            self._in_title = self._head and self.title is None
        elif self._hidden_here(tag, values):
            self._hiding = (tag, 1)
            self._inside_hidden = _OpenTags() if tag in _OPTIONAL_END else None
            if tag in _BLOCK_TAGS and not self._pre:
                self._text.append(" ")  # "before<p hidden>…</p>after" is two words, not one
        elif tag in _HEADINGS:
            self._drop_open_cell()
            self._flush()
            self._heading_level = _HEADINGS[tag]
            # a heading in a cell: a table laid out as a page, not a row of data
            self._in_row = False
        elif tag == "a" and self._heading_level is not None:
            self._anchor = len(self._text)
        elif tag == "a" and values.get("href", "").startswith("#") and not self._pre:
            self._local_link = len(self._text)  # maybe a footnote mark: see handle_endtag
        elif self._in_row and tag not in ("tr", "table", "pre"):
            if tag in ("td", "th") and self._has_text:
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

    def _hidden_here(self, tag: str, values: dict[str, str]) -> bool:
        """Whether ``tag`` starts an element that is not text: invisible, furniture, a
        sidebar, or a Confluence export's chrome. A visible element is recorded as open
        (see :class:`Landmarks`), and a banner mutes the text up to its end."""
        if _hides(tag, values):
            return True
        if tag in _VOID or tag in _OPTIONAL_END:
            return False
        chrome = self._landmarks.chrome(tag, values)
        if chrome == "hide" or (self._confluence and confluence_chrome(tag, values)):
            return True
        if self._muting is not None:
            if tag == "main" or values.get("role", "").strip().lower() == "main":
                self._muting = None  # a banner left open never holds the page's content
            elif tag == self._muting[0]:
                self._muting = (tag, self._muting[1] + 1)
        elif chrome == "mute":
            self._muting = (tag, 1)
        self._landmarks.start(tag, values)
        return False

    def handle_endtag(self, tag: str) -> None:
        # "<h1>Title<aside>…</h1>": the heading open around a hidden element ends it, as in a
        # browser; else the heading would take in the rest of the page and lose it
        hiding = self._hiding[0] if self._hiding is not None else None
        if hiding not in (None, tag) and tag in _HEADINGS and self._heading_level is not None:
            self._hiding = self._inside_hidden = None
        if self._hiding is not None and self._inside_hidden is not None:
            hidden_tag = self._hiding[0]
            inside = self._inside_hidden
            if inside.holds(tag):  # an element inside the hidden one ends
                inside.close(tag)
                return
            if tag != hidden_tag and tag not in _IMPLIED_END.get(hidden_tag, _OTHER_IMPLIED_END)[1]:
                return  # a stray end tag, which a browser ignores too
            self._hiding = self._inside_hidden = None
            if tag == hidden_tag:
                return
            # the end of an element around it (</ul> after <li hidden>) ends it too
        if self._hiding is not None:
            hidden_tag, depth = self._hiding
            if tag == hidden_tag:
                self._hiding = (hidden_tag, depth - 1) if depth > 1 else None
            return
        self._landmarks.end(tag)
        if self._muting is not None and tag == self._muting[0]:
            depth = self._muting[1] - 1
            self._muting = (tag, depth) if depth else None
        if tag == "head":
            self._head = False
        elif tag == "title" and self._in_title:
            self._in_title = False
            self.title = " ".join("".join(self._title_text).split()) or None
        elif tag == "a" and self._anchor is not None:
            if "".join(self._text[self._anchor :]).strip() in _PERMALINK_MARKS:
                del self._text[self._anchor :]
                self._has_text = bool("".join(self._text).strip())
            self._anchor = None
        elif tag == "a" and self._local_link is not None:
            # "approvals[1]." and "↩": a footnote mark next to a citation marker reads as one
            if _FOOTNOTE_MARK.match("".join(self._text[self._local_link :]).strip()):
                del self._text[self._local_link :]
                self._has_text = bool("".join(self._text).strip())
            self._local_link = None
        elif tag in _HEADINGS and self._heading_level is not None:
            heading = _TRAILING_MARK.sub("", plain_heading("".join(self._text)))
            self._text.clear()
            self._has_text = False
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
        elif self._hiding is None and (self._muting is None or self._heading_level is not None):
            if data.strip():
                self._head = False  # text can only be in the body: the head has ended
                self._has_text = True
            self._text.append(data)

    def _ends_hiding_at_start(self, tag: str) -> bool:
        """True when ``tag`` starting ends the hidden element (``<p hidden>a<p>b``: the second
        paragraph is shown); hiding is then over."""
        if self._hiding is None or self._inside_hidden is None:
            return False
        closers, _, shields = _IMPLIED_END.get(self._hiding[0], _OTHER_IMPLIED_END)
        if tag not in closers or self._inside_hidden.holds_any(shields):
            return False
        self._hiding = self._inside_hidden = None
        return True

    def _drop_open_cell(self) -> None:
        # a cell that holds a table, code or a heading ends the row: no empty cell after it
        if self._text and self._text[-1] == " | ":
            self._text.pop()

    def _flush(self, code: bool = False) -> None:
        if self._heading_level is not None:
            return
        raw = "".join(self._text)
        self._text.clear()
        self._has_text = False
        text = raw.strip("\n") if self._pre else re.sub(r"\s+", " ", raw).strip()
        if self._confluence and EXPORT_FOOTER_LINE.match(text):
            return  # the old export template's footer, a bare table cell
        if text.strip():
            self.blocks.append(Block(text, self.headings.path, kind="code" if code else "text"))


def read_html(text: str, filename: str) -> Document:
    """Parse an HTML page into blocks under their heading paths."""
    collector = _Collector(text)
    collector.feed(text)
    collector.close()
    collector._flush()
    url = collector.canonical or collector.meta_url
    if url and collector.base:
        # a malformed <base href> ("http://[::1") is ignored, as a browser ignores it
        with contextlib.suppress(ValueError):
            url = urljoin(collector.base, url.strip())
    return Document(
        title=collector.title or collector.first_heading or filename,
        media_type="text/html",
        blocks=collector.blocks,
        audience=collector.audience,
        url=url,
    )
