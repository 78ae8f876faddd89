"""The new part of a mail body: quoted history, reply headers and signatures removed.

Plain text: lines quoted with ``>`` are dropped (so interleaved replies keep their own lines),
an attribution ("On Mon, 3 Jun 2024 …, Ann wrote:", "Le … a écrit :", "Am … schrieb …:", up to
three wrapped lines carrying the quoted mail's date, or a bare "Ann wrote:" right above quoted
lines) is dropped, and
everything after an unquoted reply header (Outlook's "-----Original Message-----", a quoted
header block, a long underscore rule right before one) or the signature delimiter ("-- ") is cut,
as are mobile footers ("Sent from my iPhone", "Sent from Yahoo Mail on Android", "Sent with
Proton Mail secure email."), and the signature block and legal disclaimer below a closing
(``email_signature``). Below the author's own text, an attribution that
names an address and is followed by unquoted lines cuts the rest too: that is the earlier mail
indented instead of quoted, as Yahoo and AOL write their text part.

``format=flowed`` text (RFC 3676) is decoded first: the quote depth is the run of ``>`` that
starts a line, one space-stuffing space after it is removed, and a line ending in a space (a soft
break) is joined with the next line of the same depth (``DelSp=yes``: without that space). So a
stuffed " > 2 GB" line is the author's text "> 2 GB", not a quote, while ">" lines stay quotes;
the signature separator "-- " is always a hard line.

A quoted header block is what Outlook (and Gmail or Apple Mail when forwarding) writes above the
earlier message: a "From:" line followed within a few lines by a date header ("Sent:"/"Date:",
whose value has a digit) *and* a "To:" or "Subject:" line, in English, German, French, Spanish,
Italian, Portuguese, Dutch or Swedish. A lone "From:" in the author's prose ("From: the docs I
read, …") is text, not a header, and is kept.

HTML: ``<blockquote>`` and the quote containers of Gmail, Apple Mail, Thunderbird, Yahoo and
Outlook are skipped while the text is extracted; the result then goes through the plain rules.
Whitespace is read as a browser shows it: runs of spaces collapse outside ``<pre>``, a
non-breaking space (Gmail's indentation in its monospace style) is kept as a space, and the lines
of a ``<pre>`` block keep their indentation and line breaks and are taken as written (never a
quote, signature, attribution or reply header: that is pasted code, config or a log).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from bot.connectors.email_html import NewTextExtractor
from bot.connectors.email_signature import without_sign_off

_ATTRIBUTION = re.compile(
    r"^\s*(?:on|le|am|el|il|op|em|w dniu|den|på|dne)\b.{0,300}?"
    r"(?:wrote|a écrit|schrieb|escribió|ha scritto|schreef|escreveu|napisał|skrev|napsal)"
    r"[^\n]{0,60}:\s*$",
    re.IGNORECASE | re.DOTALL,
)
_ADDRESS_IN_TEXT = re.compile(r"[^\s<>@]+@[^\s<>@]+\.[A-Za-z]{2,}")
_SENTENCE_END = re.compile(r"[.?!]\s*$")
_ANY_SENTENCE_END = re.compile(r"[.?!\u3002\uff1f\uff01]\s*$")
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
    r"^\s*(?:sent from my \w[\w ]{0,40}|get outlook for \w+|"
    r"sent from (?:mail|yahoo mail|outlook|proton mail) (?:for|on) \w+|"
    r"sent (?:with|from) proton mail(?: secure email| mobile)?|"
    r"envoyé de mon \w+|von meinem \w+ gesendet)\.?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Line:
    """One line of a body as the stripping rules see it."""

    text: str
    quoted: bool = False
    """A quote line (``>`` in plain text and HTML, a quote depth above 0 in flowed text)."""
    verbatim: bool = False
    """Preformatted (``<pre>``): kept as written, never a quote, cut, footer or attribution."""


def strip_quoted_text(text: str, *, flowed: bool = False, delsp: bool = False) -> str:
    """The author's own lines of a plain-text mail body.

    ``flowed``/``delsp``: the part is ``format=flowed`` (with ``DelSp=yes``), RFC 3676.
    """
    lines = flowed_lines(text, delsp=delsp) if flowed else _plain_lines(text)
    return without_sign_off(_strip(lines, indented_history=True))


def _split(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _plain_lines(text: str) -> list[_Line]:
    return [_Line(line, quoted=looks_quoted(line)) for line in _split(text)]


def looks_quoted(line: str) -> bool:
    """Whether a plain-text line is quoted history: it starts with ``>``, after at most three
    columns of indentation."""
    content = line.lstrip()
    if not content.startswith(">"):
        return False
    # a ">" indented by four columns or more starts a line of pasted code or output ("    > npm
    # ERR! …", as Markdown reads it too), not a quote: clients write their quote marks at the
    # start of the line, at most after a stray space or two
    return len(line[: len(line) - len(content)].expandtabs(4)) < _CODE_INDENT


_CODE_INDENT = 4


_SIGNATURE = "-- "


def flowed_lines(text: str, *, delsp: bool = False) -> list[_Line]:
    """Decode ``format=flowed`` text (RFC 3676 §4) into logical lines.

    A line's quote depth is its leading run of ``>``; then one space-stuffing space is removed
    (senders stuff lines starting with a space, ``>`` or "From "). A line ending in a space is
    flowed: it joins the next line of the same depth (with ``delsp`` its trailing space goes,
    §4.2); a flowed line followed by a line of another depth ends there (§4.5). The signature
    separator "-- " is never flowed and is always a line of its own.
    """
    out: list[_Line] = []
    pieces: list[str] = []
    depth = 0

    def add(text: str) -> None:
        # a quote keeps its marks in the text, so the other rules see it as in fixed text
        out.append(_Line(f"{'>' * depth} {text}" if depth else text, quoted=depth > 0))

    def flush() -> None:
        if pieces:
            add("".join(pieces))
            pieces.clear()

    for raw in _split(text):
        content = raw.lstrip(">")
        line_depth = len(raw) - len(content)
        if content.startswith(" "):
            content = content[1:]
        if pieces and line_depth != depth:
            flush()
        depth = line_depth
        if content == _SIGNATURE:
            flush()
            add(content)
            continue
        soft = content.endswith(" ")
        pieces.append(content[:-1] if soft and delsp else content)
        if not soft:
            flush()
    flush()
    return out


def _strip(lines: list[_Line], *, indented_history: bool = False) -> str:
    """The kept lines of a body. ``indented_history``: an attribution naming an address below
    the author's text, followed by unquoted lines, starts the history (plain text only: in
    HTML the blockquote after an attribution is already gone, and what follows it may be the
    author's interleaved answer)."""
    kept: list[_Line] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.verbatim:
            kept.append(line)
            index += 1
            continue
        if _cuts_here(lines, index):
            break
        attribution = _attribution_span(lines, index)
        if attribution:
            own_text_above = any(k.text.strip() for k in kept)
            if indented_history and own_text_above and _unquoted_history(lines, index, attribution):
                break
            index += attribution
            continue
        if line.quoted or _MOBILE_FOOTER.match(line.text):
            index += 1
            continue
        kept.append(line)
        index += 1
    return _tidy(kept)


def _cuts_here(lines: list[_Line], index: int) -> bool:
    line = lines[index].text
    if line in (_SIGNATURE, "--") or _ORIGINAL.match(line):
        return True
    if _RULE.match(line):
        return any(_header_block_at(lines, after) for after in (index + 1, index + 2))
    return _header_block_at(lines, index)


def _header_block_at(lines: list[_Line], index: int) -> bool:
    """True when a quoted header block ("From:", then a date and a "To:"/"Subject:") starts
    at ``index``.

    One header name alone is not enough: people write "From:", "To:" or "Date:" in prose too,
    and a false cut loses the rest of their question. A real block always names the sender,
    when the earlier mail was sent (a date, so a digit) and whom it went to or what it was about.
    """
    if index >= len(lines) or lines[index].verbatim or not _HEADER_FROM.match(lines[index].text):
        return False
    # blank lines may sit between the headers (HTML mail turned into text)
    window = lines[index + 1 : index + 1 + 2 * _BLOCK_LINES]
    following = [n.text for n in window if n.text.strip() and not n.verbatim]
    following = following[:_BLOCK_LINES]
    dated = any(_is_date_header(n) for n in following)
    return dated and any(_HEADER_TO_OR_SUBJECT.match(n) for n in following)


def _is_date_header(line: str) -> bool:
    found = _HEADER_DATE.match(line)
    return found is not None and any(ch.isdigit() for ch in found.group("value"))


def _attribution_span(lines: list[_Line], index: int) -> int:
    """How many lines (1–3) an attribution starting at ``index`` spans, or 0.

    An attribution is one clause, wrapped, that carries the date of the quoted mail ("On Mon,
    3 Jun 2024 …, Ann wrote:"), or a bare "Ann wrote:" right above quoted lines, or, in any
    language, a clause naming an address and ending in a colon right above quoted lines
    (Gmail's "пн, 3 июн. 2024 г. в 10:00, Ann <ann@example.com>:"). Lines that end
    a sentence before the last one, a chunk without a digit, or "… wrote:" followed by unquoted
    lines are the author's own prose ("On Linux the install fails.\nThe installer wrote:\nERROR
    …") and stay in the question.
    """
    for span in (1, 2, 3):
        if index + span > len(lines) or lines[index + span - 1].verbatim:
            break
        if span > 1 and _SENTENCE_END.search(lines[index + span - 2].text):
            break
        chunk = " ".join(part.text.strip() for part in lines[index : index + span])
        if span == 1 and _WROTE_TAIL.search(chunk) and _quote_follows(lines, index + 1):
            return span
        if _ATTRIBUTION.match(chunk) and any(ch.isdigit() for ch in chunk):
            return span
        if _addressed_colon(lines[index : index + span]) and _quote_follows(lines, index + span):
            return span
    return 0


def _addressed_colon(span: list[_Line]) -> bool:
    """Unquoted, non-blank lines, one wrapped clause, that name an address and end in a colon
    (an attribution in any language when quoted lines follow)."""
    texts = [line.text.strip() for line in span]
    if any(line.quoted for line in span) or not all(texts):
        return False
    if any(_ANY_SENTENCE_END.search(text) for text in texts[:-1]):
        return False
    chunk = " ".join(texts)
    return chunk.endswith((":", "\uff1a")) and _ADDRESS_IN_TEXT.search(chunk) is not None


def _unquoted_history(lines: list[_Line], index: int, span: int) -> bool:
    """True when the attribution at ``index`` (``span`` lines) names the quoted mail's sender
    by address and unquoted lines follow it: the earlier mail, indented instead of quoted with
    ``>`` (Yahoo and AOL write their plain-text part so), is everything below it."""
    chunk = " ".join(line.text for line in lines[index : index + span])
    if not _ADDRESS_IN_TEXT.search(chunk):
        return False
    rest = next((line for line in lines[index + span :] if line.text.strip()), None)
    return rest is not None and not rest.quoted and not rest.verbatim


def _quote_follows(lines: list[_Line], index: int) -> bool:
    """True when the first non-blank line from ``index`` is quoted, or there is none: a bare
    "… wrote:" line introduces quoted text; before the author's own lines it is their prose."""
    rest = next((line for line in lines[index:] if line.text.strip()), None)
    return rest is None or rest.quoted


def _tidy(lines: list[_Line]) -> str:
    """Trailing spaces off, at most one blank line in a row, no blank lines or indentation at
    either end; a ``<pre>`` block keeps its blank lines and its first line's indentation."""
    texts = [line.text.rstrip() for line in lines]
    filled = [index for index, text in enumerate(texts) if text]
    if not filled:
        return ""
    following = dict(pairwise(filled))
    out: list[str] = []
    previous = filled[0]
    for index in range(filled[0], filled[-1] + 1):
        text = texts[index]
        if text:
            out.append(text)
            previous = index
        elif out[-1] or (lines[previous].verbatim and lines[following[previous]].verbatim):
            out.append("")
    if not lines[filled[0]].verbatim:
        out[0] = out[0].lstrip()
    return "\n".join(out)


# -- HTML ---------------------------------------------------------------------------------------

_HTML_SPACE = re.compile(r"[ \t\n\r\f]+")
"""What HTML collapses: ASCII whitespace only (a non-breaking space is never collapsed)."""


def html_to_new_text(html: str) -> str:
    """The author's own text of an HTML mail body."""
    extractor = NewTextExtractor()
    try:
        extractor.feed(html)
        extractor.close()
    except Exception:  # html.parser is lenient; this guards against the unexpected only
        return ""
    return without_sign_off(_strip(_html_lines(extractor.parts)))


def _html_lines(parts: list[tuple[str, bool]]) -> list[_Line]:
    """Lines of the extracted text: outside ``<pre>`` spaces collapse as a browser collapses
    them (non-breaking spaces stay, as spaces); a line with ``<pre>`` text is kept as written."""
    lines: list[_Line] = []
    pieces: list[tuple[str, bool]] = []

    def flush() -> None:
        if any(pre and text for text, pre in pieces):
            text = "".join(t if pre else _HTML_SPACE.sub(" ", t) for t, pre in pieces)
            lines.append(_Line(text.replace("\xa0", " "), verbatim=True))
        else:
            text = _HTML_SPACE.sub(" ", "".join(t for t, _ in pieces)).strip(" ")
            text = text.replace("\xa0", " ")
            lines.append(_Line(text, quoted=looks_quoted(text)))
        pieces.clear()

    for data, pre in parts:
        for number, piece in enumerate(_split(data)):
            if number:
                flush()
            pieces.append((piece, pre))
    flush()
    return lines


def history_start(text: str) -> int | None:
    """The index (in ``text``'s lines) of the first unquoted reply header: Outlook's
    "-----Original Message-----", a quoted header block or the rule above one; None when there
    is none. A signature delimiter is not one (what follows it is the author's signature)."""
    lines = _plain_lines(text)
    for index, line in enumerate(lines):
        if line.quoted or line.text in (_SIGNATURE, "--"):
            continue
        if _cuts_here(lines, index):
            return index
    return None
