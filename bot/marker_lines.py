"""Code regions and line-level constructs of the marker grammar (used by bot.markers).

Also what the scanner and the resolver ask about text around markers: where a line ends inside a
marker's start (:func:`ends_inside_marker`), and joining neighbouring text tokens.

Patterns for fences, footnote definition lines, list items and "Sources:" headings, and the
bound on code spans (:mod:`bot.marker_spans`) and math: MAX_SPAN characters. Every pattern is
applied to one line or to a bounded slice, so no input makes them backtrack for long.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_parse import (
    MAX_BRACKET,
    MAX_RECORD,
    NEED,
    Hit,
    Marker,
    Parsed,
    could_be_bracket_body,
)
from bot.marker_parse_tags import MAX_PRIVATE, MAX_TAG
from bot.marker_sign_offs import could_be_sign_off

MAX_SPAN: Final = 1024
MAX_SOURCE_LIST: Final = 8192
MAX_HEADING: Final = 80


BACKTICKS = re.compile(r"`+")
OPEN_BRACKETS = re.compile(r"\[+")
BLANK_LINE = re.compile(r"\n[ \t\r]*\n")  # "\r\n\r\n" too
MATH_CLOSE = re.compile(r"(?<=[^\s\\])\$")
# a backtick fence has no backtick after its run ("```x``` y" is a code span): the rest of
# its line, up to MAX_INFO characters, must be read before it opens
MAX_INFO: Final = 1024
FENCE_OPEN = re.compile(rf"`{{3,}}+(?![^\n`]{{0,{MAX_INFO}}}+`)|~{{3,}}")
FENCE_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t\r]*")
FENCE_CLOSE_PARTIAL = re.compile(r" {0,3}(?:`+|~+)?[ \t\r]*")
FOOTDEF = re.compile(r"\[\^[^\]\s]{1,64}\]:")
FOOTDEF_BARE = re.compile(r"\[\d{1,3}\]:")
FOOTDEF_PREFIX = re.compile(r"\[(?:\^[^\]\s]{0,64}|\d{0,3})(?:\])?")
LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t\r]|$)")
LIST_PREFIX = re.compile(r"[-*+]|\d{1,9}[.)]?")
HEADING_WORDS: Final = (
    "sources used",
    "sources",
    "source",
    "references",
    "reference",
    "citations",
    "bibliography",
    "works cited",
    # the headings models write in the answer's language: German, Spanish, Italian, Dutch,
    # Polish, Russian, Chinese and Japanese (French "Sources :" is the English word)
    "quellen",
    "fuentes",
    "fonti",
    "bronnen",
    "źródła",
    "источники",
    "参考文献",
    "出典",
    "来源",
    # and French, Portuguese, German, Swedish, Turkish, Arabic, Korean, Chinese, Japanese
    "références",
    "referências",
    "fontes",
    "referenzen",
    "quellenangaben",
    "källor",
    "kaynaklar",
    "المصادر",
    "출처",
    "参考资料",
    "参考資料",
    "参考",
)
# pictographs a model puts before the heading word ("📚 Sources:"), a variation selector after
HEADING_EMOJI: Final = "📚📖📝📄📑📎🔗🔍📌ℹ"
_EMOJI = f"(?:[{HEADING_EMOJI}]\ufe0f?[ \t]*)?"
HEADING_INITIALS: Final = frozenset("#*_sSrRcCbBwWqQfFkKźŹиИ参出来출ا" + HEADING_EMOJI)
COLON: Final = "[:：]"  # (a full-width colon after a CJK heading)
HEADING_LEAD: Final = rf" {{0,3}}(?:#{{1,6}}[ \t]+)?{_EMOJI}(?:\*\*|__|\*|_)?{_EMOJI}"
"""What may come before a heading word: indentation, ATX hashes, a pictograph, emphasis."""
HEADING = re.compile(
    HEADING_LEAD + r"(?:" + "|".join(HEADING_WORDS) + r")"
    rf"[ \t]*{COLON}?[ \t]*(?:\*\*|__|\*|_)?[ \t]*{COLON}?[ \t\r]*",
    re.IGNORECASE,
)
_AFTER_BLANK = re.compile(r"\n[ \t\r]*\n\Z")  # (searched in a slice ending at a line start)
SOURCE_ITEM = re.compile(r"(?:[-*+]|\d{1,3}[.)]|\[\^?\d{1,3}\^?\][:.]?)[ \t]+\S")


def indent_width(line: str, limit: int = 4) -> int:
    """Columns of leading indentation (a tab advances to the next multiple of 4), up to
    ``limit`` characters of it."""
    width = 0
    for char in line[:limit]:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4 - width % 4
        else:
            break
    return width


def could_be_heading(stripped: str) -> bool:
    """Whether a (possibly partial) line could still be a "Sources:"-style heading."""
    core = stripped.lstrip("#").lstrip(" \t").lstrip(f"*_ \t\ufe0f{HEADING_EMOJI}").lower()
    return any(word.startswith(core) or core.startswith(word) for word in HEADING_WORDS)


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


_CIT_OPEN = re.compile(r"<(?:(?i:cit)|(?i:ci?)?\Z)")


def ends_inside_marker(text: str) -> bool:
    """Whether more text after ``text`` could complete a marker that ``text`` begins.

    The resolver asks this where it removes a marker: what follows the removal must not
    complete a marker begun before it (``[^`` and ``1]`` around the ``[9]`` of ``[^[9]1]``,
    ``<cita`` and ``tion>``). An opener counts while no closer follows it and it is within
    its family's bound of the end; only the last opener of each family can (a closer after it
    closes the earlier ones too, and no marker holds its own opener), so a few searches do.
    """
    # a marker begun on an earlier line never closes on this one (a tag that spans lines is
    # closed in the raw text, or is not a marker)
    text = text[text.rfind("\n") + 1 :]
    size = len(text)
    double = text.rfind("[[")
    if double >= 0 and size - double < MAX_RECORD and "]]" not in text[double + 2 :]:
        return True  # a record key or a "[[1]](url)"
    single = text.rfind("[")
    body = text[single + 1 :] if single >= 0 and size - single < MAX_BRACKET else "]"
    if "]" not in body and could_be_bracket_body(body):
        return True
    angle = text.rfind("<")
    if angle >= 0 and _CIT_OPEN.search(text, max(text.rfind(">"), 0, size - MAX_TAG)):
        return True
    # no parenthesised words ("(Sourc" then "e 3)"): joined, they are text the reader reads the
    # same either way (such a group is only ever resolved from the model's raw text), so
    # nothing, visible or not, is put between them
    for opener, closer, bound in (
        ("【", "】", MAX_BRACKET),
        ("［", "］", MAX_BRACKET),
        ("\ue200", "\ue201", MAX_PRIVATE),
    ):
        at = text.rfind(opener)
        if at >= 0 and size - at < bound and closer not in text[at + 1 :]:
            return True
    return False


def merge_text(tokens: list[str | Marker]) -> list[str | Marker]:
    """Join neighbouring text tokens (fewer, longer pieces for the resolver)."""
    merged: list[str | Marker] = []
    texts: list[str] = []
    for token in tokens:
        if token.__class__ is str:
            texts.append(token)
        else:
            if texts:
                merged.append("".join(texts))
                texts = []
            merged.append(token)
    if texts:
        merged.append("".join(texts))
    return merged


# A line start that is only a block's opening syntax: a list item's marker, a heading's hashes,
# blockquote arrows (and their combinations). Held back by the resolver until content follows,
# so a line whose content was only removed markers can go whole ("- [9]" leaves no empty item).
# Only forms that reach the resolver whole, or through prefixes that are forms themselves: the
# scanner waits for an ordered item's number and its "." only in a line indented less than 4
# columns and outside a quote; elsewhere (a nested "    1.", a quoted "> 1.") the resolver
# holds the bare number itself (_BARE_NUMBER) until the next character decides.
_BARE_PREFIX = re.compile(
    r"[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)]|(?P<heading>#{1,6}))"
    r"|[ \t]*>(?:[ \t]*>)*"
)
_BARE_NUMBER = re.compile(r"[ \t]*(?:>[ \t]*)*\d{1,9}")
PREFIX_LAST: Final = frozenset(">-*+.)#")
OPENERS: Final = {"(": ")", "（": "）"}


def bare_prefix(text: str, start: int, end: int) -> str | None:
    """``"heading"`` or ``"block"`` when ``text[start:end]`` is only a line's block syntax;
    ``"number"`` when it is only the number that may begin an ordered list item."""
    m = _BARE_PREFIX.fullmatch(text, start, end)
    if m is None:
        return "number" if _BARE_NUMBER.fullmatch(text, start, end) else None
    return "heading" if m["heading"] else "block"


_LIST_LINE = re.compile(r"[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")


def last_line_nests(text: str) -> bool:
    """Whether the last complete line of ``text`` is a list item's or is indented: then an
    indented line after it is nested in the list, never code. (After a blank line in a list,
    a line indented 4 columns past its item's content is the item's code, as mistune reads it:
    such a line is reindented as after any other removed line.)"""
    lines = text.split("\n")
    line = lines[-2] if len(lines) > 1 else ""
    return line.strip() != "" and (line[0] in " \t" or _LIST_LINE.match(line) is not None)


MAX_HELD_BLANK = 1024
"""How many characters of blank lines after a removed empty heading wait for the line after
them (see :func:`reindent`); after more, the heading goes."""


def reindent_waits(text: str, indent: str) -> bool:
    """Whether ``reindent`` of ``text`` and what follows it is not yet decided: ``text`` is only
    the next line's indentation so far, or, after a removed empty heading (``indent`` ends in a
    line break), only blank lines (up to ``MAX_HELD_BLANK`` characters of them) and that."""
    if not text.strip(" \t"):
        return True
    return indent[-1:] == "\n" and not text.strip(" \t\r\n") and text.rfind("\n") < MAX_HELD_BLANK


def reindent(line: str, indent: str, blank_lines: bool = True) -> str:
    """``line`` with ``indent`` for its indentation when it has 4 columns or more of it.

    The resolver asks this for the line after one it removed: indented that far, it was a
    paragraph continuation where it was written, and would read as indented code where it lands
    (after a blank line, or at the start). ``indent`` is the removed line's own indentation, kept
    only when it is short of code. After a removed empty heading, ``indent`` is that heading's
    line (its hashes and line break): such a line was code, and stays code under the hashes,
    which alone end a list before it, where a blank line would make the code the item's text
    and show its raw ``[1]`` (an empty heading shows nothing in any channel). Blank lines may
    come between the two, as they may after any heading (not with ``blank_lines=False``: the
    line break in ``line`` then ends a removed line, whose own start decided).
    """
    if indent[-1:] == "\n" and blank_lines:
        # blank lines may come first (the resolver holds them, up to MAX_HELD_BLANK characters):
        # the first line after them decides
        start = line.rfind("\n", 0, len(line) - len(line.lstrip(" \t\r\n"))) + 1
        if start > MAX_HELD_BLANK or indent_width(line[start:]) < 4:
            return line
        return indent + line
    if indent_width(line) < 4:
        return line
    if indent[-1:] == "\n":
        return indent + line
    return (indent if indent_width(indent) < 4 else "") + line.lstrip(" \t")


# separators between markers: "," ";" "&" and the words "and" and "or" ("[1] and [9]." ->
# "[^1].", "[1] or [9]." -> "[^1].")
SEPARATORS = re.compile(r"[ \t,;&]*")
SEPARATED = re.compile(r"[ \t]*(?:[,;&]|and|or)(?:[ \t]*(?:[,;&]|(?:and|or)\b))*[ \t]*")
# separators, or separators and a word not yet whole (" a", ", an", " o"): one pattern, for speed
_SEPARATING = re.compile(
    r"[ \t]*(?:(?:[,;&]|and|or)[ \t]*)+|[ \t]*(?:(?:[,;&]|and|or)[ \t]*)*(?:an?|o)"
)
SEPARATOR_CHARS: Final = frozenset(" \t,;&andor")
"""Last characters of text that may be (the beginning of) separators between markers."""
SEPARATOR_RUN = re.compile(r"(?:[ \t,;&]|(?:and|or)(?![A-Za-z]))*")  # what a text begins with


def separating(text: str) -> bool:
    """Whether ``text`` is separators between markers, or their beginning (``" an"``)."""
    return _SEPARATING.fullmatch(text) is not None


def still_separating(held: str, text: str) -> bool:
    """Whether separators held so far and ``text`` after them are still only separators."""
    if SEPARATORS.fullmatch(text) and SEPARATORS.fullmatch(held):
        return True  # the usual case, spaces and commas: decided without the word
    return separating(held + text)


def trailing_backslashes(pieces: list[str]) -> int:
    """How many backslashes the text written as ``pieces`` ends with."""
    count = 0
    for piece in reversed(pieces):
        kept = piece.rstrip("\\")
        count += len(piece) - len(kept)
        if kept:
            break
    return count


def space_start(text: str, end: int) -> int:
    """Where the run of spaces and line breaks that ends at ``end`` begins."""
    while end > 0 and text[end - 1] in " \t\r\n":
        end -= 1
    return end


def read_source_items(
    buf: str, scan: int, head: int, final: bool, items: list[str]
) -> tuple[str | None, int]:
    """Read the items of a possible trailing source list in ``buf`` from ``scan`` on (its
    heading line at ``head``), appending them to ``items`` (a wrapped item's continuation joins
    it). ``("keep", scan)`` when a line is no item or the list outgrows ``MAX_SOURCE_LIST``,
    ``("sign_off", scan)`` when the answer ends in a model's closing line after a blank line
    (at ``scan``: the list ends there, the line stays; :mod:`bot.marker_sign_offs`), else
    ``(None, scan)`` with ``scan`` where reading stopped (the end of ``buf``, or the start
    of an unfinished last line when more text may come)."""
    n = len(buf)
    while scan < n:
        nl = buf.find("\n", scan)
        if nl < 0 and not final:
            break
        line = buf[scan : nl if nl >= 0 else n]
        if line.strip(" \t\r"):
            item = SOURCE_ITEM.match(line.lstrip(" \t"))
            if item is not None:
                items.append(line.strip())
            elif line[:2] in ("  ", "\t") and items:
                items[-1] += " " + line.strip()
            elif items and _AFTER_BLANK.search(buf, max(scan - 64, 0), scan) is not None:
                # after a blank line, a model's closing line ends the list: it stays
                closing = could_be_sign_off(buf[scan:], final)
                if closing is None:
                    return None, scan
                return ("sign_off" if closing else "keep"), scan
            else:
                return "keep", scan
        scan = nl + 1 if nl >= 0 else n
        if scan - head > MAX_SOURCE_LIST:
            return "keep", scan
    return None, scan
