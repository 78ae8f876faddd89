"""Block-level line patterns of the marker grammar, read as mistune (the renderers' parser) reads
them: what ends or continues a list, which lines end a block on their own (so indented code may
follow directly), which items cannot interrupt a paragraph, and which lines begin an HTML block.

Used by :class:`bot.marker_line_starts.LineStarts` at each line start; the claims' code masking
reads lines through it too (:mod:`bot.marker_code_lines`), so the rules live here once. Every
pattern is applied to one line.
"""

from __future__ import annotations

import re

from bot.marker_lines import indent_width

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
# heading ("#" then "tag" is none): what it is needs more of it
UNTIL_END = re.compile(r"[*_-][ \t*_-]*|=+[ \t]*|(?:[+]|\d{1,9}[.)])[ \t]*|#{1,6}")
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
