"""What the shared answer page (``/turns/{key}``) adds to the web renderer's HTML for screen
readers and keyboards, since the page runs no script (its CSP allows none) to do what the chat
page's scripts do.

- Each citation gets the accessible name the chat gives it, "Source 1: Install guide, p. 7,
  Upgrades" (title, page and section, from the answer's own source list), instead of "[1]";
  a weak one (``[1?]``) is "Source 1 (weakly supported): …", and its hover text says so first.
- Code blocks and tables, which scroll sideways inside themselves when wide, can take keyboard
  focus (``tabindex="0"``) and are named ("Code", "Table"), so they scroll with the arrow keys
  in every browser, not only in those that make scrollers focusable themselves. A code block is
  a named region; a table keeps its table role (a region would hide its rows and columns).

The input is sanitized HTML from :mod:`renderers.web`; every text added is escaped.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

# the words of a weakly supported citation, as the chat page says them (citations.js)
WEAK = "weakly supported"
_WEAK_HOVER = "Weakly supported (the \u201c?\u201d): "
_TITLE_CLASSES = {"source-link", "download", "source-name"}
_MARKER = re.compile(r'(<sup class="citation( weak)?">\u2060?<a )([^>]*)>')
_DATA_N = re.compile(r'\bdata-n="(\d+)"')
_HOVER = re.compile(r'\btitle="')


class _Entries(HTMLParser):
    """The title and detail (page, section) of each source list entry, by number."""

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[int, tuple[str, str]] = {}
        self._n: int | None = None
        self._field: str | None = None  # "title" or "detail" while inside one
        self._depth = 0
        self._title: list[str] = []
        self._detail: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "li" and (found.get("id") or "").startswith("cite-"):
            value = found.get("value") or ""
            self._n = int(value) if value.isdigit() else None
            self._title, self._detail = [], []
            return
        if self._n is None:
            return
        if self._field is not None:
            self._depth += 1
            return
        classes = set((found.get("class") or "").split())
        if classes & _TITLE_CLASSES and not self._title:
            self._field, self._depth = "title", 0
        elif "detail" in classes and not self._detail:
            self._field, self._depth = "detail", 0

    def handle_endtag(self, tag: str) -> None:
        if self._field is not None:
            if self._depth == 0:
                self._field = None
            else:
                self._depth -= 1
            return
        if tag == "li" and self._n is not None:
            self.entries[self._n] = ("".join(self._title).strip(), "".join(self._detail).strip())
            self._n = None

    def handle_data(self, data: str) -> None:
        if self._field == "title":
            self._title.append(data)
        elif self._field == "detail":
            self._detail.append(data)


def source_entries(rendered_html: str) -> dict[int, tuple[str, str]]:
    """Citation number -> (title, "p. 7, Upgrades") from the answer's source list."""
    parser = _Entries()
    parser.feed(rendered_html)
    parser.close()
    return parser.entries


def citation_name(n: int, title: str, detail: str, weak: bool) -> str:
    """A citation's accessible name, as the chat page gives it."""
    head = f"Source {n}" + (f" ({WEAK})" if weak else "") + (f": {title}" if title else "")
    return f"{head}, {detail}" if detail else head


def accessible_answer(rendered_html: str) -> str:
    """``rendered_html`` with its citations named and its code blocks and tables focusable."""
    entries = source_entries(rendered_html)

    def name(match: re.Match[str]) -> str:
        opening, weak, attrs = match.group(1), bool(match.group(2)), match.group(3)
        number = _DATA_N.search(attrs)
        if number is None or "aria-label=" in attrs:
            return match.group(0)
        n = int(number.group(1))
        title, detail = entries.get(n, ("", ""))
        label = html.escape(citation_name(n, title, detail, weak))
        if weak:
            attrs = _HOVER.sub(lambda _: 'title="' + html.escape(_WEAK_HOVER), attrs, count=1)
        return f'{opening}aria-label="{label}" {attrs}>'

    named = _MARKER.sub(name, rendered_html)
    named = named.replace("<pre>", '<pre tabindex="0" role="region" aria-label="Code">')
    return named.replace("<table>", '<table tabindex="0" aria-label="Table">')
