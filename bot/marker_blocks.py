"""Block-level line patterns of the marker grammar, read as mistune (the renderers' parser) reads
them: what ends or continues a list, which lines end a block on their own (so indented code may
follow directly), which items cannot interrupt a paragraph, and which lines begin an HTML block.

Used by :class:`bot.marker_line_starts.LineStarts` at each line start; the claims' code masking
reads lines through it too (:mod:`bot.marker_code_lines`), so the rules live here once. Every
pattern is applied to one line.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from bot.marker_lines import FENCE_CLOSE, FENCE_OPEN, LIST_ITEM, indent_width

# What ends a list at an unindented line that follows a non-blank one, as mistune (the
# renderers' parser) reads it: a thematic break, a code fence, an ATX heading, a block quote or
# an HTML comment, processing instruction, declaration or CDATA section. Any other such line
# (one that is no new list item) is a lazy continuation line and stays in the list item.
ENDS_LIST = re.compile(
    r"(?:\*[ \t]*){3,}\r?$|(?:-[ \t]*){3,}\r?$|(?:_[ \t]*){3,}\r?$"
    r"|`{3,}|~{3,}|#{1,6}(?:[ \t\r]|$)|>|<[!?]"
)
# the start of a line still arriving that may yet turn out to end the list or not
UNDECIDED = re.compile(r"#{1,6}|`{1,2}|~{1,2}|[*_-][ \t*_-]*|<")
# a line that may yet be a thematic break, a setext underline, an empty list item or an empty
# heading ("#" then "tag" is none): what it is needs more of it (a "\r" too: "-\r" may be the
# whole line, or go on)
UNTIL_END = re.compile(r"(?:[*_-][ \t*_-]*|=+[ \t]*|(?:[+]|\d{1,9}[.)])[ \t]*|#{1,6})\r?")
# Blocks that end on their own line (no paragraph stays open after them, so indented code may
# start on the next line, as mistune reads it): a thematic break, a setext heading's underline
# (only right after a paragraph line) and an ATX heading.
THEMATIC = re.compile(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\r?")
SETEXT = re.compile(r"(?:=+|-+)[ \t]*\r?")
ATX = re.compile(r"#{1,6}(?:[ \t\r]|$)")
# a list item with nothing after its marker: it cannot interrupt a paragraph, and one that
# begins a list's item ends it at a blank line (CommonMark, as mistune reads it)
EMPTY_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])[ \t]*\r?")
_NUMBER = re.compile(r"\d{1,9}")
# HTML blocks that run to a blank line, as mistune reads them: a block-level tag (types 1 and 6;
# "<pre>" runs to its closing tag there, taken as a blank line here) or a line that is only one
# simple tag (type 7, which cannot interrupt a paragraph). A "<" line still arriving that may
# yet be one waits (HTML_PREFIX).
_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details"
    "|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head"
    "|header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|noframes|ol|optgroup"
    "|option|p|param|section|source|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul"
    "|pre|script|style|textarea"
)
HTML_BLOCK = re.compile(rf"</?(?i:{_BLOCK_TAGS})(?:[ \t\r]|/?>|$)")
HTML_TAG_LINE = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*[ \t]*/?>[ \t\r]*")
HTML_PREFIX = re.compile(r"</?[A-Za-z0-9-]*[ \t]*/?>?[ \t]*")
# "</pre>" begins no HTML block (only "<pre" does, and runs to it): it is a simple tag
RAW_CLOSE = re.compile(r"</(?i:pre|script|style|textarea)(?:[ \t\r]|/?>|$)")
# a "<pre>"-like block (type 1) runs across blank lines to a line holding its closing tag,
# written in lower case as mistune reads it ("</PRE>" closes nothing there)
RAW_OPEN = re.compile(r"<(?i:pre|script|style|textarea)(?:[ \t\r>]|$)")
RAW_CLOSE_TAG = re.compile(r"</(?:pre|script|style|textarea)>")


def html_block_starts(stripped: str) -> bool:
    """Whether the line ``stripped`` (no indentation) begins an HTML block that may interrupt a
    paragraph: a block-level tag, or an opening ``<pre>``-like one ("</pre>" is a simple tag)."""
    return HTML_BLOCK.match(stripped) is not None and RAW_CLOSE.match(stripped) is None


def continues_list(in_list: bool, blank_before: bool, line: str, content: int = 1) -> bool:
    """Whether the non-blank ``line``, no new list item, stays in the list context.

    ``in_list`` is the context before it, ``blank_before`` whether a blank line precedes it,
    ``content`` the column where the list's top-level item's content starts. A line indented
    that far stays (a list item indents its own paragraphs); one indented less only as a lazy
    continuation line, right after a non-blank line (CommonMark, as mistune reads it), so an
    indented line after a later blank line still belongs to the item (no indented code).
    """
    if not in_list:
        return False
    if line[:1] in " \t" and (content <= 1 or indent_width(line, content) >= content):
        return True
    return not blank_before and ENDS_LIST.match(line.lstrip(" \t")) is None


def cannot_interrupt(stripped: str) -> bool:
    """Whether the list item that ``stripped`` begins cannot interrupt a paragraph: an empty
    one, or an ordered one not numbered 1 (it is the paragraph's text then)."""
    if EMPTY_ITEM.fullmatch(stripped):
        return True
    number = _NUMBER.match(stripped)
    return number is not None and int(number[0]) != 1


# Lines that start a block which interrupts a paragraph, by their first characters: an ATX
# heading, a fence (a backtick one has no backtick after its run), a block quote, an HTML comment,
# processing instruction, declaration or CDATA section. (Rules, setext underlines, list items
# and block-level tags are tested apart.)
_INTERRUPTS = re.compile(rf"#{{1,6}}(?:[ \t\r]|$)|{FENCE_OPEN.pattern}|>|<[!?]")
_QUOTE_MARK = re.compile(r"[ \t]{0,3}>[ \t]?")


class Paragraph(NamedTuple):
    """What a code span crossing a line end needs to know of the paragraph it opened in."""

    ends_on_line: bool  # the opener's line is a block of its own (an ATX heading)
    in_list: bool  # the paragraph is in a list item
    content: int  # the column of the list's top-level item's content
    quoted: bool  # the opener's line is in a block quote


def breaks_paragraph(line: str, paragraph: Paragraph) -> bool:
    """Whether ``line``, right after a line of ``paragraph``, ends it (so no code span runs on
    into it), as mistune reads CommonMark: a blank line, a heading, a fence, a rule or setext
    underline, a block quote (unless the paragraph is quoted: then the quote's own lines go on,
    and an unquoted line only if it begins no list item either), an HTML block that may
    interrupt a paragraph (types 1 to 6), or a list item that may (a sibling in the list always
    does). A line indented 4 or more past the paragraph's column is its text."""
    lazy = False
    if paragraph.quoted:
        mark = _QUOTE_MARK.match(line)
        if mark is not None:
            line = line[mark.end() :]
        else:
            lazy = True  # continues the quote's paragraph only if it begins no block at all
    stripped = line.lstrip(" \t")
    if not stripped.strip("\r"):
        return True
    width = indent_width(line, len(line) - len(stripped))
    nested = True
    if paragraph.in_list:
        if width >= paragraph.content:
            width -= paragraph.content
        else:
            nested = False  # at a sibling item's level (or a lazy line)
    if width >= 4:
        return False
    if _INTERRUPTS.match(stripped) or html_block_starts(stripped):
        return True
    if THEMATIC.fullmatch(stripped) or SETEXT.fullmatch(stripped):
        return True
    if LIST_ITEM.match(stripped) is None:
        return False
    return lazy or not nested or not cannot_interrupt(stripped)


def content_column(stripped: str, indent: int, marker_end: int) -> int:
    """The column where the content of the list item that ``stripped`` begins (its line from
    its marker on, ``indent`` columns in; the marker and a space end at ``marker_end``) starts:
    after the spaces that follow the marker, or one space when there are more than 4 or none."""
    marker = marker_end - (stripped[marker_end - 1] in " \t\r")
    if stripped[marker_end : marker_end + 1] == " ":  # (mostly one space: no slice then)
        spaces = len(stripped) - marker - len(stripped[marker:].lstrip(" "))
        return indent + marker + (spaces if spaces <= 4 else 1)
    return indent + marker + 1


def leaves_item(line: str) -> bool:
    """Whether the outdented ``line`` (no blank line before it) ends the list item that a fence
    is in, and the fence with it: when it begins a list item or a block that interrupts the item
    (else it is a lazy line of the code)."""
    body = line.lstrip(" \t")
    return LIST_ITEM.match(body) is not None or ENDS_LIST.match(body) is not None


def ends_on_its_line(line: str) -> bool:
    """Whether ``line`` (without its line break) leaves no paragraph open after it, so a
    paragraph line after it begins a paragraph: a blank line, an ATX heading, a rule or setext
    underline, a closing fence, a closed comment, or a line indented 4 columns (code, as the
    scanner reads it outside a list).

    The resolver asks it of the line before a setext underline whose heading it removed whole
    (``[9]`` / ``===``): there the underline would be left under nothing. (A paragraph line that
    only looks like one of these, indented 4 columns or a ``===`` after a heading, is taken for
    it: the heading above then loses its underline, and shows as a paragraph.)
    """
    stripped = line.lstrip(" \t")
    if not stripped.strip("\r") or indent_width(line) >= 4:
        return True
    return (
        ATX.match(stripped) is not None
        or THEMATIC.fullmatch(stripped) is not None
        or SETEXT.fullmatch(stripped) is not None
        or FENCE_CLOSE.fullmatch(stripped) is not None
        or (stripped.startswith("<!--") and "-->" in stripped[4:])
    )


_LOOK_BACK = 4096  # how far back the line before a removed heading is looked for


def underlines_nothing(pieces: list[str], held: str, quoted: bool) -> bool:
    """Whether a setext underline written at the end of ``pieces`` + ``held`` (the resolver's
    output, ending where it removed the line or lines above the underline) would underline no
    paragraph line: the removed lines were a whole paragraph, at the start, after a blank line
    or after a line that ``ends_on_its_line``, rather than the last lines of one (``Text`` /
    ``[9]`` / ``===`` keeps its heading). A line longer than 4,096 characters is a paragraph's.
    ``quoted``: the removed lines began a block quote, whose paragraph goes on only from a quoted
    line (``- item`` / ``> [9]`` / ``===``).
    """
    chunks: list[str] = []
    size = 0
    body = False  # a character other than whitespace came (reading from the end)
    chunk, left = held, len(pieces)
    while True:
        chunk = chunk[-_LOOK_BACK:]
        chunks.append(chunk)
        size += len(chunk)
        if not body:
            stripped = chunk.rstrip(" \t\r\n")
            body = stripped != ""
            if "\n" in stripped:
                break
        elif "\n" in chunk:
            break
        if size >= _LOOK_BACK:
            break
        if not left:
            chunks.append("\n")  # the output's start: as after a line break
            break
        left -= 1
        chunk = pieces[left]
    text = "".join(reversed(chunks))
    end = text.rstrip(" \t\r\n")
    breaks = text.count("\n", len(end))
    if breaks != 1:
        return breaks > 1  # a blank line before the removed lines (none: not at a line start)
    start = end.rfind("\n") + 1
    if not start and end:
        return False  # the line goes on further back: a long one, a paragraph's
    line = end[start:]
    return ends_on_its_line(line) or (quoted and line.lstrip(" \t")[:1] != ">")
