"""Code regions and line-level constructs of the marker grammar (used by bot.markers).

Patterns for fences, footnote definition lines, list items and "Sources:" headings, and the
code-span rule: a backtick run opens a code span only if a run of the same length closes it
within MAX_SPAN characters and before a blank line. Every pattern is applied to one line or to
a bounded slice, so no input makes them backtrack for long.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_parse import NEED, Hit, Parsed

MAX_SPAN: Final = 1024
MAX_SOURCE_LIST: Final = 8192
MAX_HEADING: Final = 80


BACKTICKS = re.compile(r"`+")
OPEN_BRACKETS = re.compile(r"\[+")
BLANK_LINE = re.compile(r"\n[ \t\r]*\n")  # "\r\n\r\n" too
MATH_CLOSE = re.compile(r"(?<=[^\s\\])\$")
FENCE_OPEN = re.compile(r"`{3,}|~{3,}")
FENCE_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t\r]*")
FENCE_CLOSE_PARTIAL = re.compile(r" {0,3}(?:`+|~+)?[ \t\r]*")
FOOTDEF = re.compile(r"\[\^[^\]\s]{1,64}\]:")
FOOTDEF_BARE = re.compile(r"\[\d{1,3}\]:")
FOOTDEF_PREFIX = re.compile(r"\[(?:\^[^\]\s]{0,64}|\d{0,3})(?:\])?")
LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t\r]|$)")
LIST_PREFIX = re.compile(r"[-*+]|\d{1,9}[.)]?")
HEADING_WORDS: Final = (
    "sources",
    "source",
    "references",
    "reference",
    "citations",
    "bibliography",
    "works cited",
)
HEADING_INITIALS: Final = frozenset("#*_sSrRcCbBwW")
HEADING = re.compile(
    r" {0,3}(?:#{1,6}[ \t]+)?(?:\*\*|__|\*|_)?(?:" + "|".join(HEADING_WORDS) + r")"
    r"[ \t]*:?[ \t]*(?:\*\*|__|\*|_)?[ \t]*:?[ \t\r]*",
    re.IGNORECASE,
)
SOURCE_ITEM = re.compile(r"(?:[-*+]|\d{1,3}[.)]|\[\^?\d{1,3}\^?\][:.]?)[ \t]+\S")


def indent_width(line: str) -> int:
    """Columns of leading indentation (a tab advances to the next multiple of 4), up to 4."""
    width = 0
    for char in line[:4]:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4 - width % 4
        else:
            break
    return width


def could_be_heading(stripped: str) -> bool:
    """Whether a (possibly partial) line could still be a "Sources:"-style heading."""
    core = stripped.lstrip("#").lstrip(" \t").lstrip("*_").lower()
    return any(word.startswith(core) or core.startswith(word) for word in HEADING_WORDS)


def code_span(buf: str, at: int, final: bool) -> Parsed:
    """A backtick run opens a code span only if a run of the same length closes it in time.

    "In time" means within MAX_SPAN characters and before a blank line ends the paragraph.
    """
    n = len(buf)
    opener = BACKTICKS.match(buf, at)
    assert opener is not None
    end = opener.end()
    if end >= n and not final:
        return NEED
    size = end - at
    limit = min(n, at + MAX_SPAN)
    for run in BACKTICKS.finditer(buf, end, limit):
        if run.end() - run.start() == size:
            closer = run.start()
            if buf.find("\n", end, closer) >= 0 and BLANK_LINE.search(buf, end, closer):
                return Hit(end, None)
            if run.end() >= n and not final:
                return NEED
            return Hit(run.end(), None)
    if limit >= n and not final and BLANK_LINE.search(buf, end, n) is None:
        return NEED
    return Hit(end, None)


def math_span(
    buf: str, at: int, final: bool, base: int, clear: tuple[int, int]
) -> tuple[Parsed, tuple[int, int]]:
    """``$$…$$`` and ``$…$`` math at ``at`` (pandoc's rules: no space inside the dollars).

    Math ends within MAX_SPAN characters and before a blank line. Whether a ``$`` can close
    does not depend on the opener, so ``clear`` (absolute positions, ``base`` is the absolute
    offset of ``buf``) remembers a stretch searched without finding a closer; it is never
    searched again, which keeps ``$x $x $x …`` linear. Returns the decision and the new memo.
    """
    n = len(buf)
    if at + 1 >= n:
        return (None if final else NEED), clear
    limit = min(n, at + MAX_SPAN)
    if buf[at + 1] == "$":
        close = buf.find("$$", at + 2, limit)
        if close >= 0:
            if BLANK_LINE.search(buf, at, close):
                return Hit(at + 2, None), clear
            return Hit(close + 2, None), clear
        if limit >= n and not final and BLANK_LINE.search(buf, at, n) is None:
            return NEED, clear
        return Hit(at + 2, None), clear
    if buf[at + 1] in " \t\r\n":
        return None, clear
    begin = at + 2
    if clear[0] - base <= begin < clear[1] - base:
        begin = clear[1] - base
    for closer in MATH_CLOSE.finditer(buf, begin, limit) if begin < limit else ():
        after = closer.end()
        if after >= n and not final:
            return NEED, clear
        if after < n and buf[after].isdigit():
            continue
        if BLANK_LINE.search(buf, at, closer.start()):
            return None, clear
        return Hit(after, None), clear
    if limit >= n and not final and BLANK_LINE.search(buf, at, n) is None:
        return NEED, clear
    return None, (base + at + 2, base + max(limit, begin))
