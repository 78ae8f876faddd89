"""The new part of a mail body: quoted history, reply headers and signatures removed.

Plain text: lines quoted with ``>`` are dropped (so interleaved replies keep their own lines),
an attribution ("On Mon, 3 Jun 2024 …, Ann wrote:", "Le … a écrit :", "Am … schrieb …:", up to
three wrapped lines carrying the quoted mail's date, or a bare "Ann wrote:" right above quoted
lines) is dropped, and
everything after an unquoted reply header (Outlook's "-----Original Message-----", a quoted
header block, a long underscore rule right before one) or the signature delimiter ("-- ") is cut,
as are mobile footers ("Sent from my iPhone").

A quoted header block is what Outlook (and Gmail or Apple Mail when forwarding) writes above the
earlier message: a "From:" line followed within a few lines by a date header ("Sent:"/"Date:",
whose value has a digit) *and* a "To:" or "Subject:" line, in English, German, French, Spanish,
Italian, Portuguese, Dutch or Swedish. A lone "From:" in the author's prose ("From: the docs I
read, …") is text, not a header, and is kept.

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
_SENTENCE_END = re.compile(r"[.?!]\s*$")
_WROTE_TAIL = re.compile(r"\b(?:wrote|a écrit|schrieb|escribió|ha scritto|skrev)\s*:\s*$", re.I)
_ORIGINAL = re.compile(
    r"^\s*-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine|"
    r"mensaje original|messaggio originale|forwarded message)\s*-{2,}\s*$",
    re.IGNORECASE,
)
_HEADER_FROM = re.compile(r"^\s*\*?(?:from|von|de|da|van|från)\s*:\*?\s", re.IGNORECASE)
# Outlook's own names for the other headers of its block, in the languages of _HEADER_FROM
# ("Enviado el:" is Spanish Outlook; "A:"/"À :" Italian/French "To:")
_HEADER_DATE = re.compile(
    r"^\s*\*?(?:sent|date|gesendet|datum|envoyé|enviado(?: el)?|inviato|verzonden|skickat)"
    r"\s*:\*?(?P<value>.*)$",
    re.IGNORECASE,
)
_HEADER_TO_OR_SUBJECT = re.compile(
    r"^\s*\*?(?:to|an|à|a|para|aan|till|subject|betreff|objet|asunto|oggetto|assunto|"
    r"onderwerp|ämne)\s*:",
    re.IGNORECASE,
)
_BLOCK_LINES = 4
"""Non-blank lines after "From:" that hold the rest of a block (Outlook: Sent, To, Cc, Subject)."""
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
    if _RULE.match(line):
        return any(_header_block_at(lines, after) for after in (index + 1, index + 2))
    return _header_block_at(lines, index)


def _header_block_at(lines: list[str], index: int) -> bool:
    """True when a quoted header block ("From:", then a date and a "To:"/"Subject:") starts
    at ``index``.

    One header name alone is not enough: people write "From:", "To:" or "Date:" in prose too,
    and a false cut loses the rest of their question. A real block always names the sender,
    when the earlier mail was sent (a date, so a digit) and whom it went to or what it was about.
    """
    if index >= len(lines) or not _HEADER_FROM.match(lines[index]):
        return False
    # blank lines may sit between the headers (HTML mail turned into text)
    following = [n for n in lines[index + 1 : index + 1 + 2 * _BLOCK_LINES] if n.strip()]
    following = following[:_BLOCK_LINES]
    dated = any(_is_date_header(n) for n in following)
    return dated and any(_HEADER_TO_OR_SUBJECT.match(n) for n in following)


def _is_date_header(line: str) -> bool:
    found = _HEADER_DATE.match(line)
    return found is not None and any(ch.isdigit() for ch in found.group("value"))


def _attribution_span(lines: list[str], index: int) -> int:
    """How many lines (1–3) an attribution starting at ``index`` spans, or 0.

    An attribution is one clause, wrapped, that carries the date of the quoted mail ("On Mon,
    3 Jun 2024 …, Ann wrote:"), or a bare "Ann wrote:" right above quoted lines. Lines that end
    a sentence before the last one, a chunk without a digit, or "… wrote:" followed by unquoted
    lines are the author's own prose ("On Linux the install fails.\nThe installer wrote:\nERROR
    …") and stay in the question.
    """
    for span in (1, 2, 3):
        if index + span > len(lines):
            break
        if span > 1 and _SENTENCE_END.search(lines[index + span - 2]):
            break
        chunk = " ".join(part.strip() for part in lines[index : index + span])
        if span == 1 and _WROTE_TAIL.search(chunk) and _quote_follows(lines, index + 1):
            return span
        if _ATTRIBUTION.match(chunk) and any(ch.isdigit() for ch in chunk):
            return span
    return 0


def _quote_follows(lines: list[str], index: int) -> bool:
    """True when the first non-blank line from ``index`` is quoted, or there is none: a bare
    "… wrote:" line introduces quoted text; before the author's own lines it is their prose."""
    rest = next((line for line in lines[index:] if line.strip()), None)
    return rest is None or rest.lstrip().startswith(">")


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
