"""Footnote marks and MDX expressions on the reading page: kept out of the text a quote matches.

Ingest reads a Markdown sentence as a rendered page shows it (:mod:`bot.knowledge.markdown_markup`):
"a note[^1] attached" is indexed as "a note attached", and in an MDX page "the release
{props.version} is out" as "the release is out". The reading page renders the file's own text,
so its sentence held the mark and a citation's ``#:~:text=`` quote matched nothing there: the
link neither scrolled nor highlighted. Outside code, the page shows a footnote mark as the
stylesheet's generated content of an empty ``<sup class="cc-fn">`` (seen, but not text a text
fragment matches, like an image's "[image: …]"), and leaves out an MDX page's simple
expressions, as a rendered MDX page shows their value, never their source. A footnote's
definition (``[^1]: Why.``) is text, as ingest reads it: to mistune, which has no footnotes,
it was a link reference definition, so the page left out the footnote and made each mark
naming it a link.
"""

from __future__ import annotations

import html
import re

from bot.knowledge.markdown_markup import FOOTNOTE_REF, without_expressions

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_FOOTNOTE_DEF = re.compile(r"^( {0,3})(\[\^[^\]\s]+\]:)")
# sanitized markup (nh3's output): a tag never holds a raw "<" or ">" inside it
_TAG = re.compile(r"(<[^<>]*>)")
_CODE_TAG = re.compile(r"<(/?)(code|pre)\b", re.I)
FOOTNOTE_CSS = ".cc-fn::after { content: attr(title); }\n"
"""The stylesheet rule that shows a footnote mark's text (add to the page's stylesheet)."""


def footnote_definitions_as_text(markdown: str) -> str:
    """``markdown`` with the ``[`` opening each footnote definition outside fenced code
    escaped, so that mistune renders the definition as the paragraph it reads as."""
    if "[^" not in markdown:
        return markdown
    lines = markdown.split("\n")
    fence = ""
    for number, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence:
            closes = opening and opening[1][0] == fence[0] and len(opening[1]) >= len(fence)
            fence = "" if closes and not line.strip().strip(fence[0]) else fence
        elif opening:
            fence = opening[1]
        elif line.lstrip(" ").startswith("[^"):
            lines[number] = _FOOTNOTE_DEF.sub(r"\1\\\2", line, count=1)
    return "\n".join(lines)


def _mark(found: re.Match[str]) -> str:
    return f'<sup class="cc-fn" title="{html.escape(found[0])}"></sup>'


def _text(escaped: str, mdx: bool) -> str:
    if "[^" not in escaped and not (mdx and "{" in escaped):
        return escaped
    text = html.unescape(escaped)
    if mdx:
        text = without_expressions(text)
    pieces = FOOTNOTE_REF.split(text)
    marks = [_mark(found) for found in FOOTNOTE_REF.finditer(text)]
    out = [html.escape(pieces[0], quote=False)]
    for mark, piece in zip(marks, pieces[1:], strict=True):
        out += [mark, html.escape(piece, quote=False)]
    return "".join(out)


def with_marks_apart(markup: str, *, mdx: bool = False) -> str:
    """Sanitized ``markup`` of a Markdown file (``mdx``: an MDX page) with each footnote mark
    outside code an empty ``<sup class="cc-fn">`` showing it, and (``mdx``) without its simple
    inline expressions outside code."""
    out: list[str] = []
    in_code = 0
    for part in _TAG.split(markup):
        if part.startswith("<"):
            tag = _CODE_TAG.match(part)
            if tag:
                in_code = max(0, in_code + (-1 if tag[1] else 1))
            out.append(part)
        else:
            out.append(part if in_code else _text(part, mdx))
    return "".join(out)
