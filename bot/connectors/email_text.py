"""The new part of a mail body: quoted history, reply headers and signatures removed.

Plain text: lines quoted with ``>`` are dropped (so interleaved replies keep their own lines),
an attribution line ("On Mon, Ann wrote:", "Le … a écrit :", "Am … schrieb …:") is dropped, and
everything after an unquoted reply header (Outlook's "-----Original Message-----", a
"From:" line followed by "Sent:"/"Date:", a long underscore rule) or the signature delimiter
("-- ") is cut, as are mobile footers ("Sent from my iPhone").

HTML: ``<blockquote>`` and the quote containers of Gmail, Apple Mail, Thunderbird, Yahoo and
Outlook are skipped while the text is extracted; the result then goes through the plain rules.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_ATTRIBUTION = re.compile(
    r"^\s*(?:on|le|am|el|il|op|em|w dniu|den|på|dne)\b.{0,300}?"
    r"(?:wrote|a écrit|schrieb|escribió|ha scritto|schreef|escreveu|napisał|skrev|napsal)"
    r"[^\n]{0,60}:\s*$",
    re.IGNORECASE | re.DOTALL,
)
_WROTE_TAIL = re.compile(r"\b(?:wrote|a écrit|schrieb|escribió|ha scritto|skrev)\s*:\s*$", re.I)
_ORIGINAL = re.compile(
    r"^\s*-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine|"
    r"mensaje original|messaggio originale|forwarded message)\s*-{2,}\s*$",
    re.IGNORECASE,
)
_HEADER_FROM = re.compile(r"^\s*\*?(?:from|von|de|da|van|från)\s*:\*?\s", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"^\s*\*?(?:sent|date|to|subject|gesendet|datum|envoyé|enviado|inviato|an|à|para)\s*:",
    re.IGNORECASE,
)
_RULE = re.compile(r"^\s*_{10,}\s*$")
_MOBILE_FOOTER = re.compile(
    r"^\s*(?:sent from my \w[\w ]{0,40}|get outlook for \w+|sent from (?:mail|yahoo mail) for \w+|"
    r"envoyé de mon \w+|von meinem \w+ gesendet)\.?\s*$",
    re.IGNORECASE,
)


def strip_quoted_text(text: str) -> str:
    """The author's own lines of a plain-text mail body."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if _cuts_here(lines, index):
            break
        attribution = _attribution_span(lines, index)
        if attribution:
            index += attribution
            continue
        if line.lstrip().startswith(">") or _MOBILE_FOOTER.match(line):
            index += 1
            continue
        kept.append(line.rstrip())
        index += 1
    return _tidy("\n".join(kept))


def _cuts_here(lines: list[str], index: int) -> bool:
    line = lines[index]
    if line in ("-- ", "--") or _ORIGINAL.match(line):
        return True
    if _RULE.match(line) and any(_HEADER_FROM.match(n) for n in lines[index + 1 : index + 3]):
        return True
    if _HEADER_FROM.match(line):
        following = [n for n in lines[index + 1 : index + 5] if n.strip()]
        return any(_HEADER_NEXT.match(n) for n in following[:3])
    return False


def _attribution_span(lines: list[str], index: int) -> int:
    """How many lines (1–3) an attribution starting at ``index`` spans, or 0."""
    for span in (1, 2, 3):
        if index + span > len(lines):
            break
        chunk = " ".join(part.strip() for part in lines[index : index + span])
        if _ATTRIBUTION.match(chunk) or (span == 1 and _WROTE_TAIL.search(chunk)):
            return span
    return 0


def _tidy(text: str) -> str:
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


# -- HTML ---------------------------------------------------------------------------------------

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
_BLOCK = frozenset(
    {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
)
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
_CUT_IDS = frozenset({"appendonsend", "divrplyfwdmsg", "mail-editor-reference-message-container"})


class _NewTextExtractor(HTMLParser):
    """Collects visible text outside quote containers; stops at Outlook's reply marker."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._stack: list[tuple[str, bool]] = []
        self._skip_depth = 0
        self.cut = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
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
        if skip:
            self._skip_depth += 1
        if tag in _BLOCK:
            self._text("\n")

    def handle_endtag(self, tag: str) -> None:
        if self.cut or tag in _VOID:
            return
        if not any(open_tag == tag for open_tag, _ in self._stack):
            return
        while self._stack:
            open_tag, skip = self._stack.pop()
            if skip:
                self._skip_depth -= 1
            if open_tag == tag:
                break
        if tag in _BLOCK:
            self._text("\n")

    def handle_data(self, data: str) -> None:
        if not self.cut:
            self._text(data)

    def _text(self, data: str) -> None:
        if self._skip_depth == 0:
            self.parts.append(data)


def html_to_new_text(html: str) -> str:
    """The author's own text of an HTML mail body."""
    extractor = _NewTextExtractor()
    try:
        extractor.feed(html)
        extractor.close()
    except Exception:  # html.parser is lenient; this guards against the unexpected only
        return ""
    lines = [" ".join(line.split()) for line in "".join(extractor.parts).split("\n")]
    return strip_quoted_text("\n".join(lines))
