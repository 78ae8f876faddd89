"""What the shared answer page (``/turns/{key}``) adds to the web renderer's HTML for screen
readers and keyboards, since the page runs no script (its CSP allows none) to do what the chat
page's scripts do.

- Each citation gets the accessible name the chat gives it, "Source 1: Install guide, p. 7,
  Upgrades" (title, page and section, from the answer's own source list), instead of "[1]";
  a weak one (``[1?]``) is "Source 1 (weakly supported): …", and its hover text says so first.
- Each citation number that can take focus gets its own description: a note after it, holding
  its own hover text (title, page or section and the quote of its own claim: the second ``[1]``
  of a citation whose markers quote different sentences has the second's), which
  ``aria-describedby`` points at instead of the source list entry (whose quote is the first
  claim's). Hidden, the note is still its description; keyboard focus shows it below the line
  (chat.css ``.cc-cite-note``), in the flow of the answer, so it covers nothing and needs no
  script to dismiss (WCAG 1.4.13, 2.1.1); the pointer still gets the ``title``.
- Code blocks and tables, which scroll sideways inside themselves when wide, can take keyboard
  focus (``tabindex="0"``) and are named ("Code", "Table"), so they scroll with the arrow keys
  in every browser, not only in those that make scrollers focusable themselves. A code block is
  a named region; a table keeps its table role (a region would hide its rows and columns).

The input is sanitized HTML from :mod:`renderers.web`; every text added is escaped.
"""

from __future__ import annotations

import html
import re

from bot.lenient_html import LenientHTMLParser

# the words of a weakly supported citation, as the chat page says them (citations.js)
WEAK = "weakly supported"
_WEAK_HOVER = "Weakly supported (the \u201c?\u201d): "
_TITLE_CLASSES = {"source-link", "download", "source-name"}
_MARKER = re.compile(r'(<sup class="citation( weak)?">\u2060?<a )([^>]*)>([^<]*</a>)')
_DATA_N = re.compile(r'\bdata-n="(\d+)"')
_HOVER = re.compile(r'\btitle="')
_HOVER_TEXT = re.compile(r'\btitle="([^"]*)"')
_DESCRIBED = re.compile(r'\s*\baria-describedby="[^"]*"')


class _Entries(LenientHTMLParser):
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
    notes = 0

    def name(match: re.Match[str]) -> str:
        nonlocal notes
        opening, weak, attrs, rest = match.groups()
        number = _DATA_N.search(attrs)
        if number is None or "aria-label=" in attrs:
            return match.group(0)
        n = int(number.group(1))
        title, detail = entries.get(n, ("", ""))
        label = html.escape(citation_name(n, title, detail, bool(weak)))
        if weak:
            attrs = _HOVER.sub(lambda _: 'title="' + html.escape(_WEAK_HOVER), attrs, count=1)
        hover = _HOVER_TEXT.search(attrs)
        if hover is None or not attrs.startswith("href="):
            # no text to show, or a number that takes no focus: described as it was
            return f'{opening}aria-label="{label}" {attrs}>{rest}'
        notes += 1
        note_id = f"cc-note-{notes}"
        attrs = _DESCRIBED.sub("", attrs) + f' aria-describedby="{note_id}"'
        text = html.escape(html.unescape(hover.group(1)))
        note = f'<span class="cc-cite-note" id="{note_id}" dir="auto">{text}</span>'
        return f'{opening}aria-label="{label}" {attrs}>{rest}{note}'

    named = _MARKER.sub(name, rendered_html)
    named = named.replace("<pre>", '<pre tabindex="0" role="region" aria-label="Code">')
    return named.replace("<table>", '<table tabindex="0" aria-label="Table">')
