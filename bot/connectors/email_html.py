"""The visible text of an HTML mail body outside quote containers, as ``(text, pre)`` pieces.

``<blockquote>`` and the quote containers of Gmail, Apple Mail, Thunderbird, Yahoo, ProtonMail
and Outlook are skipped, extraction stops at Outlook's reply marker, block elements and ``<br>``
break lines, text inside ``<pre>`` is flagged so it can be kept as written, and a web link's
address follows its text (``this page <https://…>``), as mail clients write their text part.
Turning the pieces into lines and removing the remaining quoted history is ``email_text``'s job.
"""

from __future__ import annotations

import re

from bot.lenient_html import LenientHTMLParser

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
_BLOCK = frozenset(
    {
        "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol",
        "dl", "dt", "dd", "section", "article", "header", "footer", "address", "center",
        "figure", "figcaption", "caption", "main", "aside", "nav", "details", "summary",
    }
)  # fmt: skip
# cells of a row stand apart, as a browser shows them: "<td>version</td><td>3.2</td>" is
# "version 3.2", never "version3.2"
_CELLS = frozenset({"td", "th"})
_SKIP_TAGS = frozenset({"blockquote", "style", "script", "head", "title", "template"})
_SKIP_CLASSES = frozenset(
    {
        "gmail_quote",
        "gmail_signature",
        "gmail_extra",
        "yahoo_quoted",
        "moz-cite-prefix",
        "moz-signature",
        "apple-mail-quote",
        "protonmail_quote",
    }
)
_WEB_URL = re.compile(r"https?://[^\s<>]+$", re.IGNORECASE)
_SCHEME = re.compile(r"^https?://", re.IGNORECASE)
_LINK_TEXT_PARTS = 64
"""Text pieces of a link read to decide whether its text already shows its URL."""
_CUT_IDS = frozenset({"appendonsend", "divrplyfwdmsg", "mail-editor-reference-message-container"})


class NewTextExtractor(LenientHTMLParser):
    """Collects visible text outside quote containers; stops at Outlook's reply marker.

    ``parts`` holds ``(text, preformatted)`` pieces: text inside ``<pre>`` is kept as written.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[tuple[str, bool]] = []
        self._stack: list[tuple[str, bool]] = []
        self._links: list[tuple[str, int]] = []  # open <a>: its web URL and first part index
        self._skip_depth = 0
        self._pre_depth = 0
        self._pre_opened = False  # right after <pre>: a newline there is not content (HTML spec)
        self.cut = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._pre_opened = False
        if self.cut:
            return
        values = {name.lower(): (value or "") for name, value in attrs}
        if values.get("id", "").lower() in _CUT_IDS:
            self.cut = True
            return
        if tag == "br":
            self._text("\n")
        if tag in _VOID:
            if tag == "hr" and self._skip_depth == 0:
                self._text("\n")
            return
        classes = set(values.get("class", "").lower().split())
        skip = tag in _SKIP_TAGS or bool(classes & _SKIP_CLASSES)
        skip = skip or values.get("type", "").lower() == "cite"
        self._stack.append((tag, skip))
        if tag == "a":
            href = values.get("href", "").strip()
            self._links.append((href if _WEB_URL.match(href) else "", len(self.parts)))
        if skip:
            self._skip_depth += 1
        if tag in _BLOCK:
            self._text("\n")
        elif tag in _CELLS:
            self._text(" ")
        if tag == "pre":
            self._pre_depth += 1
            self._pre_opened = True

    def handle_endtag(self, tag: str) -> None:
        self._pre_opened = False
        if self.cut or tag in _VOID:
            return
        if not any(open_tag == tag for open_tag, _ in self._stack):
            return
        while self._stack:
            open_tag, skip = self._stack.pop()
            if skip:
                self._skip_depth -= 1
            if open_tag == "pre":
                self._pre_depth -= 1
            if open_tag == "a" and self._links:
                self._link_target(*self._links.pop())
            if open_tag == tag:
                break
        if tag in _BLOCK:
            self._text("\n")
        elif tag in _CELLS:
            self._text(" ")

    def _link_target(self, href: str, start: int) -> None:
        """After a link's text, its URL as ``text <url>`` (as mail clients write the text part),
        unless the text already shows it: the question is about that page, not the words."""
        # a bounded look: links nested thousands deep must not cost a quadratic join
        text = "".join(part for part, _ in self.parts[start : start + _LINK_TEXT_PARTS])
        bare = _SCHEME.sub("", href).rstrip("/")
        if href and text.strip() and bare not in text:
            self._text(f" <{href}>")

    def handle_data(self, data: str) -> None:
        if self._pre_opened and data.startswith(("\r\n", "\n", "\r")):
            data = data[2:] if data.startswith("\r\n") else data[1:]
        self._pre_opened = False
        if not self.cut:
            self._text(data)

    def _text(self, data: str) -> None:
        if self._skip_depth == 0 and data:
            self.parts.append((data, self._pre_depth > 0))
