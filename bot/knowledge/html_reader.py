"""HTML reader: visible text in blocks under the h1–h6 heading path.

Scripts, styles and other invisible elements are dropped. ``<link rel="canonical">`` (or
``<meta name="citecast:url">``) gives the public URL and ``<meta name="citecast:audience">``
the audience, like Markdown front matter.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from bot.knowledge.document import Block, Document, HeadingPath, clean_heading
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
        "footer",
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
_HIDDEN_TAGS = frozenset(
    ("script", "style", "template", "noscript", "svg", "iframe", "object", "head")
)
_HEADINGS = {f"h{n}": n for n in range(1, 7)}


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
        self._hidden = 0
        self._in_title = False
        self._title_text: list[str] = []
        self._heading_level: int | None = None
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "title":
            self._in_title = True
        elif tag == "meta":
            name = values.get("name", "").lower()
            if name == "citecast:audience":
                self.audience = audience_from(values.get("content", ""))
            elif name == "citecast:url":
                self.meta_url = values.get("content") or None
        elif tag == "link" and "canonical" in values.get("rel", "").lower().split():
            self.canonical = values.get("href") or None
        if tag in _HIDDEN_TAGS:
            self._hidden += 1
        elif tag in _HEADINGS:
            self._flush()
            self._heading_level = _HEADINGS[tag]
        elif tag in _BLOCK_TAGS:
            self._flush()
            if tag == "pre":
                self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
            self.title = " ".join("".join(self._title_text).split()) or None
        if tag in _HIDDEN_TAGS:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _HEADINGS and self._heading_level is not None:
            heading = clean_heading("".join(self._text))
            self._text.clear()
            self.headings.enter(self._heading_level, heading)
            self.first_heading = self.first_heading or heading or None
            self._heading_level = None
        elif tag in _BLOCK_TAGS:
            self._flush(code=tag == "pre")
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title_text.append(data)
        elif not self._hidden:
            self._text.append(data)

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
