"""An answer's Markdown as plain text that keeps its layout: ``[^n]`` written ``[n]`` and
backslash escapes removed where CommonMark reads them, so ``\\[1\\]`` reads ``[1]``.

``citecast ask`` prints this. The chat's *Copy answer* writes the same text in the browser
(``plain_markdown.js``); both are checked against one list of cases,
``tests/renderers/plain_markdown_cases.json``. Everything else stays as written (emphasis,
lists, headings and links read well as they are); the channels' renderers parse the whole tree.

A backslash escapes only an ASCII punctuation character, and only outside code: fenced and
indented code blocks and code spans keep their backslashes, and so do raw HTML (blocks and inline
tags) and autolinks (``<https://a.example/\\_x>``). Which lines are code and where code spans
run is the resolver's reading (:func:`bot.claims.mask_code`), so a ``[^n]`` it took for code
stays as written too, but a list item that begins with indented code (five spaces after its
marker) is code, as every channel shows it. A block quote's content, with its lazy lines, is
read as a text of its own: in a loop, not by recursion, and with the levels all its lines have
taken in one pass, so a quote thousands deep is not read again at each of its levels.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.claims import mask_code
from bot.marker_code_lines import CODE, GOES_ON, OPENS, RAW, line_kinds

ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
"""What a backslash escapes in CommonMark; before any other character it is a backslash."""

_CITATION = re.compile(r"\[\^([1-9][0-9]{0,4})\]")
_QUOTE = re.compile(r" {0,3}> ?")
# a quote's line that may open a fence or an HTML block, which take no lazy line (the quote
# ends); one class for the marks, so a deep quote costs no backtracking
_QUOTED_BLOCK = re.compile(r"[ >]*(?:(?:[-+*]|[0-9]{1,9}[.)]) +)?(?:`{3}|~{3}|<)")
# a list item that begins with indented code (five spaces or more after its marker)
_ITEM_CODE = re.compile(r" {0,3}(?:[-+*]|[0-9]{1,9}[.)]) {5,}\S")
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
    out = [""] * len(lines)  # each line's quote marks, then its text as read
    # texts read on their own: the answer, then each quote's content (by its first line's
    # index); a loop, not recursion, so a quote nested thousands deep is no deeper a call
    texts: list[tuple[int, list[str]]] = [(0, lines)]
    while texts:
        at, part = texts.pop()
        whole = "\n".join(part)
        kinds, masked = _reading(part)
        starts = [0]
        for line in part:
            starts.append(starts[-1] + len(line) + 1)
        for first, end, quoted in _runs(part, kinds):
            run = part[first:end]
            if quoted:
                cuts = _quote_ends(run)
                texts.append(
                    (at + first, [line[cut:] for line, cut in zip(run, cuts, strict=True)])
                )
                read = [line[:cut] for line, cut in zip(run, cuts, strict=True)]
            elif kinds[first] == RAW:  # an HTML block's line: raw, but a [^n] is a citation
                read = [_CITATION.sub(lambda m: marker(int(m[1])), run[0])]
            else:
                start, stop = starts[first], starts[end] - 1
                read = _inline(whole[start:stop], masked[start:stop], marker).split("\n")
            for k, line in enumerate(read):
                out[at + first + k] += line
    return "\n".join(out)


def _runs(lines: list[str], kinds: list[int]) -> list[tuple[int, int, bool]]:
    """The lines of a text read on its own in runs (first, end, quoted): a quote (its lazy
    lines with it: a code span in it may run into them), an HTML block's line, or prose and
    code read inline."""
    runs: list[tuple[int, int, bool]] = []
    i = 0
    while i < len(lines):
        first = i
        quoted = _quoted(lines[i], kinds[i])
        block = False  # (the quote may open a fence or HTML block: it takes no lazy line)
        while i < len(lines) and kinds[i] != RAW:
            lazy = quoted and not block and kinds[i] == GOES_ON
            if _quoted(lines[i], kinds[i]) != quoted and not lazy:
                break
            block = block or (quoted and _QUOTED_BLOCK.match(lines[i]) is not None)
            i += 1
        i += i == first
        runs.append((first, i, quoted))
    return runs


def _reading(lines: list[str]) -> tuple[list[int], str]:
    """Each line's kind and the text with its code blanked (:func:`bot.claims.mask_code`), as
    the resolver reads them, but a list item that begins with indented code is code (every
    channel shows it so; the resolver reads prose): read as an item of plain letters, then
    blanked."""
    items = [bool(_ITEM_CODE.match(line)) for line in lines]
    if any(items):
        lines = [_lettered(line) if item else line for line, item in zip(lines, items, strict=True)]
    whole = "\n".join(lines)
    kinds = line_kinds(whole)
    kinds += [OPENS] * (len(lines) - len(kinds))  # (the empty piece after a last "\n")
    masked = mask_code(whole)
    pieces: list[str] = []
    at = done = 0
    for line, item in zip(lines, items, strict=True):
        if item:
            pieces += [masked[done:at], "\0" * len(line)]
            done = at + len(line)
        at += len(line) + 1
    return kinds, "".join(pieces) + masked[done:]


def _lettered(item: str) -> str:
    """A list item's line with its content's characters written ``x``: an item of prose as
    long, in which nothing opens (a code span of the real content would run on)."""
    marker = _ITEM_CODE.match(item)
    width = marker.end() - 1 if marker else 0
    return item[:width] + "x" * (len(item) - width)


def _quote_ends(run: list[str]) -> list[int]:
    """Where each line of a quote's run ends its marks: one level, and every further level
    while each line is quoted again (a text whose every line is quoted is one quote; one
    pass over the marks keeps a deep quote linear). A lazy line has none."""
    cuts = [0] * len(run)
    while True:
        marks = [_QUOTE.match(line, cut) for line, cut in zip(run, cuts, strict=True)]
        cuts = [cut if mark is None else mark.end() for mark, cut in zip(marks, cuts, strict=True)]
        if not all(_QUOTE.match(line, cut) for line, cut in zip(run, cuts, strict=True)):
            return cuts


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
