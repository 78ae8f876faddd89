"""Line starts of the marker grammar: what a line is, decided where it begins (bot.markers).

:class:`LineStarts` is the base of :class:`bot.markers.MarkerScanner`: the scanner reads the
text within a line; this classifies each line where it starts. A line may open or close a
fenced code block, be indented code (only after a blank line and outside a list), be a
footnote definition to remove (``[^1]: …``, and ``[1]: …`` where bare numbers are markers, with
the indented lines that continue it), begin a trailing "Sources:" list that the grammar's
``is_source_list`` judge accepts (removed with its items), or be an ordinary line whose text the
scanner reads on. Blank lines and the list context (an indented line in a list is no code) are
tracked here too.

A base class rather than a collaborator, like :class:`bot.resolver_text.ResolvedText`: these
run once per line on the scanner's hot path (``bench/resolve.py``).
"""

from __future__ import annotations

import re

from bot.marker_lines import (
    FENCE_CLOSE,
    FENCE_CLOSE_PARTIAL,
    FENCE_OPEN,
    FOOTDEF,
    FOOTDEF_BARE,
    FOOTDEF_PREFIX,
    HEADING,
    HEADING_INITIALS,
    HEADING_WORDS,
    LIST_ITEM,
    LIST_PREFIX,
    MAX_HEADING,
    MAX_SOURCE_LIST,
    could_be_heading,
    indent_width,
    read_source_items,
)
from bot.marker_parse import Grammar, Marker

__all__ = ["PLAIN_LINE_START", "LineStarts", "Token", "Verbatim", "continues_list"]

# What ends a list at an unindented line that follows a non-blank one, as mistune (the
# renderers' parser) reads it: a thematic break, a code fence, an ATX heading, a block quote or
# an HTML comment, processing instruction, declaration or CDATA section. Any other such line
# (one that is no new list item) is a lazy continuation line and stays in the list item.
_ENDS_LIST = re.compile(
    r"(?:\*[ \t]*){3,}\r?$|(?:-[ \t]*){3,}\r?$|(?:_[ \t]*){3,}\r?$"
    r"|`{3,}|~{3,}|#{1,6}(?:[ \t\r]|$)|>|<[!?]"
)
# the start of a line still arriving that may yet turn out to end the list or not
_UNDECIDED = re.compile(r"#{1,6}|`{1,2}|~{1,2}|[*_-][ \t*_-]*|<")


def continues_list(in_list: bool, blank_before: bool, line: str) -> bool:
    """Whether the non-blank ``line``, no new list item, stays in the list context.

    ``in_list`` is the context before it, ``blank_before`` whether a blank line precedes it. An
    indented line stays (a list item indents its own paragraphs); an unindented one only as a
    lazy continuation line, right after a non-blank line (CommonMark, as mistune reads it), so
    an indented line after a later blank line still belongs to the item (no indented code).
    """
    if not in_list:
        return False
    if line[:1] in " \t":
        return True
    return not blank_before and _ENDS_LIST.match(line) is None


class Verbatim(str):
    """Text the scanner passes on as written and no one may write into: code and math. (A
    ``str``, so it reads as text; the resolver cites no record label inside it.)"""

    __slots__ = ()


Token = str | Marker

# A line start that begins no construct: most characters, and a word with a heading initial
# that is complete (followed by a non-letter) and is not the first word of a heading word.
_HEADING_FIRST_WORDS = "|".join(sorted({word.split()[0] for word in HEADING_WORDS}))
PLAIN_LINE_START = re.compile(
    r"[^ \t\r\n`~\[#*_+>\-\d\ue200-\ue202sSrRcCbBwW]"
    rf"|(?!(?i:{_HEADING_FIRST_WORDS})[^a-zA-Z])[sSrRcCbBwW][a-zA-Z]{{0,15}}[^a-zA-Z]"
)


class LineStarts:
    """The line-level state of a scan, and the decision taken at each line start."""

    def __init__(self, grammar: Grammar, mark_verbatim: bool) -> None:
        self.grammar = grammar
        # code and math as Verbatim tokens, for a reader that writes into text (mentions);
        # otherwise plain text, merged with its neighbours into fewer pieces
        self._mark_verbatim = mark_verbatim
        self._base = 0  # the absolute offset of the scanner's buffer (the scanner moves it)
        self._line_start = True
        self._fence: str | None = None
        self._code_line = False
        self._skip_line = False
        self._definition = False  # after a definition line: its indented lines go with it
        self._indented = False
        self._blank_before = True
        self._list_ctx = False
        self._src_head = -1
        self._src_scan = 0
        self._src_items: list[str] = []
        self._src_rejected = -1

    def _line(self, buf: str, pos: int, final: bool, out: list[Token]) -> int:
        """Classify the line at ``pos``; the next position to scan, or -1 to wait for more."""
        if (
            self._fence is None
            and not self._indented
            and PLAIN_LINE_START.match(buf, pos) is not None
            # in a list, an HTML comment ends it: a "<" line waits for what follows (below)
            and (not self._list_ctx or buf[pos] != "<")
        ):
            # the common case: a paragraph line whose first character starts no construct
            # (right after a non-blank line in a list: a lazy continuation of the item)
            self._list_ctx = self._list_ctx and not self._blank_before
            self._blank_before = self._line_start = self._definition = False
            return pos
        n = len(buf)
        nl = buf.find("\n", pos)
        complete = nl >= 0 or final
        line = buf[pos : nl if nl >= 0 else n]
        if self._fence is not None:
            return self._fenced_line(line, pos, nl, complete, out)
        stripped = line.lstrip(" \t")
        if not complete and not stripped.strip("\r"):
            return -1
        if complete and not stripped.strip("\r"):
            out.append(buf[pos : nl + 1 if nl >= 0 else n])
            self._blank_before = True
            return nl + 1 if nl >= 0 else n
        if line[0] in " \t" and indent_width(line) >= 4:  # most lines start unindented
            if self._definition:
                # CommonMark continues a footnote definition on indented lines (blank ones
                # between too), and a "[1]: url" one with its title: removed with it, never
                # left to join a code block the removed line used to end
                self._skip_line = True
                self._line_start = False
                return pos
            if self._indented or (self._blank_before and not self._list_ctx):
                self._indented = self._code_line = True
            self._blank_before = self._line_start = False
            return pos
        self._indented = self._definition = False
        first = stripped[0]
        if first in "`~":
            fence = FENCE_OPEN.match(stripped)
            run_open = fence is not None and fence.end() == len(stripped)
            if not complete and (run_open or (fence is None and len(set(stripped)) == 1)):
                return -1
            if fence is not None:
                self._fence = fence[0]
                self._code_line = True
                self._blank_before = self._line_start = self._list_ctx = False
                return pos
        elif first == "[":
            if FOOTDEF.match(stripped) or (
                FOOTDEF_BARE.match(stripped) and self.grammar.bare_groups()
            ):
                self._definition = True
                self._skip_line = True
                self._line_start = False
                return pos
            if not complete and FOOTDEF_PREFIX.fullmatch(stripped):
                return -1
        if (
            self.grammar.is_source_list is not None
            and self._src_rejected != self._base + pos
            and len(line) <= MAX_HEADING
            and first in HEADING_INITIALS
            and could_be_heading(stripped)
        ):
            if not complete:
                return -1
            if HEADING.fullmatch(line):
                verdict = self._source_list(buf, pos, nl, final)
                if verdict == "need":
                    return -1
                if verdict == "strip":
                    self._line_start = False
                    return n
                self._src_rejected = self._base + pos
        if not complete and LIST_PREFIX.fullmatch(stripped):
            return -1
        if LIST_ITEM.match(stripped):
            self._list_ctx = True
        else:
            if (
                not complete
                and self._list_ctx
                and not self._blank_before
                and _UNDECIDED.fullmatch(line) is not None
            ):
                return -1  # "#" may be a heading (ends the list) or "#tag" (does not)
            self._list_ctx = continues_list(self._list_ctx, self._blank_before, line)
        self._blank_before = self._line_start = False
        return pos

    def _fenced_line(self, line: str, pos: int, nl: int, complete: bool, out: list[Token]) -> int:
        fence = self._fence
        assert fence is not None
        if not complete and FENCE_CLOSE_PARTIAL.fullmatch(line):
            return -1
        close = FENCE_CLOSE.fullmatch(line) if complete else None
        if close is not None and close[1][0] == fence[0] and len(close[1]) >= len(fence):
            closing = line + ("\n" if nl >= 0 else "")
            out.append(Verbatim(closing) if self._mark_verbatim else closing)
            self._fence = None
            self._blank_before = False
            return nl + 1 if nl >= 0 else pos + len(line)
        self._code_line = True
        self._line_start = False
        return pos

    def _source_list(self, buf: str, head: int, head_nl: int, final: bool) -> str:
        """ "strip", "keep" or "need" for the heading line at ``head`` and what follows it."""
        judge = self.grammar.is_source_list
        assert judge is not None
        if self._src_head != self._base + head:
            self._src_head = self._base + head
            self._src_scan = self._base + (head_nl + 1 if head_nl >= 0 else len(buf))
            self._src_items = []
        verdict, scan = read_source_items(
            buf, self._src_scan - self._base, head, final, self._src_items
        )
        if verdict is not None:
            return verdict
        self._src_scan = self._base + scan
        if not final:
            return "keep" if scan - head > MAX_SOURCE_LIST else "need"
        return "strip" if judge(list(self._src_items)) else "keep"
