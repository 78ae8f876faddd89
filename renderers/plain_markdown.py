"""An answer's Markdown as plain text that keeps its layout: ``[^n]`` written ``[n]`` and
backslash escapes removed where CommonMark reads them, so ``\\[1\\]`` reads ``[1]``.

``citecast ask`` prints this. The chat's *Copy answer* writes the same text in the browser
(``plainMarkdown`` in ``answer_actions.js``); both are checked against one list of cases,
``tests/renderers/plain_markdown_cases.json``. Everything else stays as written (emphasis,
lists, headings and links read well as they are); the channels' renderers parse the whole tree.

A backslash escapes only an ASCII punctuation character, and only outside code: fenced and
indented code blocks and code spans keep their backslashes, and so do raw HTML (blocks and inline
tags) and autolinks (``<https://a.example/\\_x>``). Which lines are code and where code spans
run is the resolver's reading (:func:`bot.claims.mask_code`), so a ``[^n]`` it took for code
stays as written too; a block quote's content is read as a text of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.claims import mask_code
from bot.marker_code_lines import CODE, OPENS, RAW, line_kinds

ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
"""What a backslash escapes in CommonMark; before any other character it is a backslash."""

_CITATION = re.compile(r"\[\^([1-9][0-9]{0,4})\]")
_QUOTE = re.compile(r" {0,3}> ?")
# CommonMark's inline raw HTML and autolinks, where a backslash is literal (the spec's own
# definitions: open and closing tags, comments, processing instructions, declarations, CDATA)
_ATTRIBUTE = r"""\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?"""
_RAW_INLINE = re.compile(
    r"<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\x00-\x20]*>"  # an autolink
    rf"|<[A-Za-z][A-Za-z0-9-]*(?:{_ATTRIBUTE})*\s*/?>"  # an open tag
    r"|</[A-Za-z][A-Za-z0-9-]*\s*>"
    r"|<!---->|<!--->|<!--[\s\S]*?-->"
    r"|<\?[\s\S]*?\?>"
    r"|<![A-Za-z][^>]*>"
    r"|<!\[CDATA\[[\s\S]*?\]\]>"
)


def plain_markdown(text: str, marker: Callable[[int], str]) -> str:
    """``text`` (an answer's Markdown) with each ``[^n]`` outside code written ``marker(n)``
    and each backslash escape outside code, raw HTML and autolinks removed."""
    if "\\" not in text and "[^" not in text:
        return text
    lines = text.split("\n")
    kinds = line_kinds(text)
    kinds += [OPENS] * (len(lines) - len(kinds))  # (the empty piece after a last "\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    masked = mask_code(text)
    out: list[str] = []
    i = 0
    while i < len(lines):
        first = i
        quoted = _quoted(lines[i], kinds[i])
        while i < len(lines) and kinds[i] != RAW and _quoted(lines[i], kinds[i]) == quoted:
            i += 1
        if i == first:  # an HTML block's line: raw text, but a [^n] in it is a citation
            out.append(_CITATION.sub(lambda m: marker(int(m[1])), lines[i]))
            i += 1
        elif quoted:
            # the resolver's reading finds no code after a quote's ">" (its claims have none
            # there): the quote's content is read as a text of its own, so a fence in it is code
            marks = [_QUOTE.match(line) for line in lines[first:i]]
            prefixes = [m[0] if m else "" for m in marks]
            inner = [line[len(p) :] for p, line in zip(prefixes, lines[first:i], strict=True)]
            read = plain_markdown("\n".join(inner), marker).split("\n")
            out += [p + line for p, line in zip(prefixes, read, strict=True)]
        else:
            start, end = starts[first], starts[i] - 1
            out.append(_inline(text[start:end], masked[start:end], marker))
    return "\n".join(out)


def _quoted(line: str, kind: int) -> bool:
    return kind not in (CODE, RAW) and _QUOTE.match(line) is not None


def _inline(text: str, masked: str, marker: Callable[[int], str]) -> str:
    """``text`` (whole lines, none raw or quoted) read character by character; ``masked`` is
    the same text with its code blanked (:func:`bot.claims.mask_code`)."""
    out: list[str] = []
    at, n = 0, len(text)
    while at < n:
        char = text[at]
        if masked[at] == char:  # not code
            if char == "\\" and at + 1 < n and text[at + 1] in ASCII_PUNCTUATION:
                if masked[at + 1] == text[at + 1]:  # (not a backtick that opens code)
                    out.append(text[at + 1])
                    at += 2
                    continue
            elif char == "<" and (tag := _RAW_INLINE.match(text, at)) is not None:
                out.append(tag[0])
                at = tag.end()
                continue
            elif char == "[" and (cite := _CITATION.match(text, at)) is not None:
                out.append(marker(int(cite[1])))
                at = cite.end()
                continue
        out.append(char)
        at += 1
    return "".join(out)
