"""HTML reader: visible text in blocks under the h1–h6 heading path.

Scripts, styles, other invisible elements (``hidden``, ``aria-hidden="true"``) and page
furniture (``<nav>``, ``<footer>`` and elements with their ARIA roles, up to where a browser
ends them: see :mod:`bot.knowledge.html_hidden`; a site's banner and sidebars, and a
Confluence export's chrome: see :mod:`bot.knowledge.html_chrome`) are dropped; so are the
permalink marks (``¶``) that documentation generators append to headings. The title is the
first ``<title>`` of the head. A table is read as a Markdown pipe table (one block, a row a
line: ``| Pallet | 95 EUR |``), a first row of ``<th>`` cells its header, so that the answerer
reads each row with its column names as it reads a Markdown file's (``Shipment type: Pallet;
Return fee: 95 EUR``); a row of one cell is a paragraph (a table that lays out a page). Inline
``<code>`` is kept as a code span (:mod:`bot.knowledge.html_code_span`), ``<pre>`` as a code
block.
The page's URL and audience come from its own tags in ``<head>`` (an audience tag anywhere
narrows it): :mod:`bot.knowledge.html_page_tags`. An attribute written twice on a tag is
its first copy, as a browser reads it.
"""

from __future__ import annotations

import re

from bot.knowledge.document import Block, Document, HeadingPath, Unreadable, plain_heading
from bot.knowledge.html_chrome import (
    EXPORT_FOOTER_LINE,
    Landmarks,
    confluence_chrome,
    is_confluence_export,
)
from bot.knowledge.html_code_span import code_span
from bot.knowledge.html_hidden import Hidden, OpenElements, has_optional_end, hides, is_void
from bot.knowledge.html_page_tags import PageTags
from bot.lenient_html import LenientHTMLParser

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
# What may stand in <head>; any other tag (or text) starts the body, as in a browser, so a page
# that leaves out the optional </head> (or <head> and <body> altogether) still has a body.
_HEAD_TAGS = frozenset(
    ("html", "head", "title", "meta", "link", "style", "script", "base", "noscript", "template")
)
# The text of an in-page link that is a footnote mark or a footnote's way back (Google Docs
# writes <sup><a href="#ftnt1">[1]</a></sup>, Pandoc and Sphinx "1", "[1]" and "↩").
_FOOTNOTE_MARK = re.compile(r"^(?:\[(?:\d{1,3}|[a-z]{1,2})\]|\d{1,3}|[*†‡]|↩\ufe0e?)$")
# The whole text of a permalink anchor that documentation generators put in headings (Sphinx,
# MkDocs: <a class="headerlink">¶</a>); it is not part of the heading.
_PERMALINK_MARKS = frozenset(("", "¶", "§", "#", "🔗", "⚓", "⚓︎"))
_TRAILING_MARK = re.compile(r"\s*[¶§🔗⚓]\ufe0e?$")
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
# Between the cells of a row in ``_text`` (text holds no such character): split at the row's end.
_CELL = "\x1f"


class _Collector(LenientHTMLParser):
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
        self.tags = PageTags()  # the page's URL, <base> and audience tags
        self._text: list[str] = []
        # ``_text`` holds more than spaces: known without joining it at each of a row's cells
        self._has_text = False
        self._head = True  # <head> is implied until the body starts
        self._hiding: Hidden | None = None  # the hidden element being skipped
        self._open = OpenElements()  # the visible elements open: where a hidden one ends
        self._in_title = False
        self._title_text: list[str] = []
        self._heading_level: int | None = None
        self._anchor: int | None = None  # where a link inside a heading starts in _text
        self._local_link: int | None = None  # where a link to "#…" in the page starts in _text
        self._pre = 0
        self._code_from: int | None = None  # where an inline <code> starts in _text
        # Inside a table row its cells are one line, "| Team | $10 |": a cell alone ("$10")
        # says nothing when quoted, and a chunk boundary could fall between a row's cells.
        self._in_row = False
        self._row_cells = 0  # cells of the row so far
        self._row_header = True  # whether they are all <th>
        # the rows of the table being read (line, whether a header, cells), and their section
        self._table: list[tuple[str, bool, int]] = []
        self._table_section: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # an attribute written twice is the first one, as in a browser (a dict comprehension
        # kept the last: <meta name="citecast:audience" name="x" content="staff"> was no tag)
        values: dict[str, str] = {}
        repeated: list[tuple[str, str]] = []
        for key, value in attrs:
            if key in values:
                repeated.append((key, value or ""))
            else:
                values[key] = value or ""
        # Where the page is the author's: the head, outside <template> and <noscript>. A URL
        # tag anywhere else (pasted content, an inline SVG, a hidden element) is not the page's.
        own = self._head and self._hiding is None
        self.tags.read(tag, values, own, repeated)
        if self._hiding is not None:
            if not self._hiding.ends_at_start(tag):
                return
            self._hiding = None
        if tag not in _HEAD_TAGS:
            self._head = False
        if self._confluence and tag == "td" and "pagebody" in values.get("class", "").split():
            self._in_row = False  # the old export template lays the page out in one cell
        if tag == "title":
            # Only the page's own title: an inline SVG's <title> names an icon.
            self._in_title = self._head and self.title is None
        elif self._hidden_here(tag, values):
            self._hiding = Hidden(tag)
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
        elif tag == "code" and not self._pre and self._heading_level is None:
            if self._code_from is None:  # (a <code> inside one is part of it)
                self._code_from = len(self._text)
        elif self._in_row and tag not in ("tr", "table", "pre"):
            if tag in ("td", "th"):
                if self._row_cells:
                    self._text.append(_CELL)
                self._row_cells += 1
                self._row_header = self._row_header and tag == "th"
            elif tag in _BLOCK_TAGS:
                self._text.append(" ")  # a <p> or <br> inside a cell
        elif tag in _BLOCK_TAGS:
            self._drop_open_cell()
            self._flush()
            if tag == "pre":
                self._pre += 1
            if tag == "table":
                self._end_table()  # a nested table is a table of its own
            # a nested table ends the row around it: its own rows are blocks of their own
            self._in_row = tag == "tr"
            self._row_cells, self._row_header = 0, True

    def _hidden_here(self, tag: str, values: dict[str, str]) -> bool:
        """Whether ``tag`` starts an element that is not text: invisible, furniture, a
        sidebar, or a Confluence export's chrome. A visible element is recorded as open
        (see :class:`OpenElements` and :class:`Landmarks`), and a banner mutes the text up
        to its end."""
        if hides(tag, values):
            return True
        if is_void(tag):
            return False
        if has_optional_end(tag):
            self._open.push(tag)
            return False
        chrome = self._landmarks.chrome(tag, values)
        if chrome == "hide" or (self._confluence and confluence_chrome(tag, values)):
            return True
        self._open.push(tag)
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
        if self._hiding is not None:
            # "<h1>Title<aside>…</h1>": the heading open around a hidden element ends it, as in
            # a browser; else the heading would take in the rest of the page and lose it
            in_heading = tag in _HEADINGS and self._heading_level is not None
            ends = "around" if in_heading and tag != self._hiding.tag else None
            ends = ends or self._hiding.end(tag, self._open)
            if ends != "around":
                self._hiding = None if ends == "ended" else self._hiding
                return
            self._hiding = None  # and the end tag ends the visible element around it
        self._open.close(tag)
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
        elif tag == "code" and self._code_from is not None:
            # kept as a code span, so that readers of the text take it as code (see
            # html_code_span); one running over cells is no span
            code = "".join(self._text[self._code_from :])
            if _CELL not in code:
                self._text[self._code_from :] = [code_span(code)]
            self._code_from = None
        elif self._in_row and tag not in ("tr", "table", "pre"):
            return  # the end of a cell, or of a block inside one: the row goes on
        elif tag in _BLOCK_TAGS:
            self._flush(code=tag == "pre")
            if tag == "pre":
                self._pre = max(0, self._pre - 1)
            if tag == "table":
                self._end_table()
            self._in_row = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title_text.append(data)
        elif self._hiding is None and (self._muting is None or self._heading_level is not None):
            if data.strip():
                self._head = False  # text can only be in the body: the head has ended
                self._has_text = True
            self._text.append(data)

    def _drop_open_cell(self) -> None:
        # a cell that holds a table, code or a heading ends the row: no empty cell after it
        if self._text and self._text[-1] == _CELL:
            self._text.pop()

    def _flush(self, code: bool = False) -> None:
        if self._heading_level is not None:
            return
        raw = "".join(self._text)
        self._text.clear()
        self._code_from = None  # a <code> with a block inside it stays text
        self._has_text = False
        if self._in_row and not code and not self._pre:
            self._add_row(raw)
            return
        if not raw.strip() and not self._pre:
            return  # the spaces between two rows do not end their table
        self._end_table()
        text = raw.strip("\n") if self._pre else re.sub(r"\s+", " ", raw).strip()
        if self._confluence and EXPORT_FOOTER_LINE.match(text):
            return  # the old export template's footer, a bare table cell
        if text.strip():
            # text in a <pre> is code up to a block inside it, or an end of file left open
            code = code or self._pre > 0
            self.blocks.append(Block(text, self.headings.path, kind="code" if code else "text"))

    def _add_row(self, raw: str) -> None:
        """A row of the table being read, as a pipe-table line (a pipe in a cell escaped);
        a row of one cell is a paragraph (a table that lays out a page), ending the table."""
        cells = [re.sub(r"\s+", " ", cell).strip() for cell in raw.split(_CELL)]
        if not any(cells):
            return
        if len(cells) == 1:
            self._end_table()
            if not (self._confluence and EXPORT_FOOTER_LINE.match(cells[0])):
                self.blocks.append(Block(cells[0], self.headings.path))
            return
        if not self._table:
            self._table_section = self.headings.path
        line = "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"
        self._table.append((line, self._row_header, len(cells)))

    def _end_table(self) -> None:
        """The rows read so far as one block: a Markdown pipe table, with a delimiter line
        under a first row of ``<th>`` cells (its header) when rows follow it."""
        if not self._table:
            return
        lines = [line for line, _, _ in self._table]
        _, header, width = self._table[0]
        if header and len(lines) > 1:
            lines.insert(1, "|" + " --- |" * width)
        self.blocks.append(Block("\n".join(lines), self._table_section))
        self._table = []


UNCLOSED_TITLE = "no text: an unclosed <title> holds the whole page"
"""Why a page whose ``<title>`` never ends, and so holds all of its text, is skipped."""


def read_html(text: str, filename: str) -> Document:
    """Parse an HTML page into blocks under their heading paths; Unreadable with
    :data:`UNCLOSED_TITLE` when an unclosed ``<title>`` took in all of its text."""
    collector = _Collector(text)
    collector.feed(text)
    collector.close()
    collector._flush()
    collector._end_table()
    if not collector.blocks and collector._in_title and "".join(collector._title_text).strip():
        # "<title>Guide<p>…" never closed: the rest of the page is the title's text, as in a
        # browser (which shows none of it); plain "no text" would send the writer looking at
        # a file full of paragraphs
        raise Unreadable(UNCLOSED_TITLE)
    audience = collector.tags.audience()
    url = collector.tags.url()
    return Document(
        title=collector.title or collector.first_heading or filename,
        media_type="text/html",
        blocks=collector.blocks,
        audience=audience,
        url=url,
    )
