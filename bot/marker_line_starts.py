"""Line starts of the marker grammar: what a line is, decided where it begins (bot.markers).

:class:`LineStarts` is the base of :class:`bot.markers.MarkerScanner`: the scanner reads the
text within a line; this classifies each line where it starts. A line may open or close a
fenced code block (also one in a list item, which ends with its item:
:class:`bot.marker_fences.FencedCode`, a base), be indented code
(outside a list, after a blank line or a block that ends on its line: an ATX heading, a closed
fence, a thematic break, a setext underline, a closed comment), be a footnote definition to
remove (``[^1]: …``, and ``[1]: …`` where bare numbers are markers, with
the indented lines that continue it), begin a trailing "Sources:" list that the grammar's
``is_source_list`` judge accepts (removed with its items, and a rule right above it:
:class:`bot.marker_source_lists.SourceLists`, a base), or be an ordinary line whose text the
scanner reads on. Blank lines, HTML blocks (up to a blank line; a ``<pre>``-like one up to the
first after its closing tag) and the list context (an item's indented code is 4 columns past its
content; a top-level item's content column decides what stays in it; an item that begins empty
ends at a blank line) are tracked here too, as mistune reads them.

A base class rather than a collaborator, like :class:`bot.resolver_text.ResolvedText`: these
run once per line on the scanner's hot path (``bench/resolve.py``).
"""

from __future__ import annotations

import re

from bot.marker_blocks import (
    ATX,
    EMPTY_ITEM,
    ENDS_LIST,
    HTML_PREFIX,
    HTML_TAG_LINE,
    RAW_CLOSE_TAG,
    RAW_OPEN,
    SETEXT,
    THEMATIC,
    UNDECIDED,
    UNTIL_END,
    cannot_interrupt,
    content_column,
    continues_list,
    html_block_starts,
    leaves_item,
)
from bot.marker_fences import FencedCode
from bot.marker_lines import (
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
    MAX_INFO,
    could_be_heading,
    indent_width,
)
from bot.marker_parse import Grammar, Marker
from bot.marker_source_line import one_line_source_items
from bot.marker_source_lists import SourceLists
from bot.marker_tokens import Token, Underline, Verbatim

__all__ = ["PLAIN_LINE_START", "LineStarts", "Token", "Underline", "Verbatim", "continues_list"]


# A line start that begins no construct: most characters, and a word with a heading initial
# that is complete (followed by a non-letter) and is not the first word of a heading word.
_HEADING_FIRST_WORDS = "|".join(sorted({word.split()[0] for word in HEADING_WORDS}))
_LETTER = r"[^\W\d_]"  # (any script's: "Références" is one word, not "R" and "éférences")
PLAIN_LINE_START = re.compile(
    rf"[^ \t\r\n`~\[#*_+<>=\-\d\ue200-\ue202{''.join(sorted(HEADING_INITIALS - set('#*_')))}]"
    rf"|(?!(?i:{_HEADING_FIRST_WORDS})(?!{_LETTER}))[sSrRcCbBwWqQfFkK]{_LETTER}{{0,15}}[\W\d_]"
)


class LineStarts(FencedCode, SourceLists):
    """The line-level state of a scan, and the decision taken at each line start."""

    def __init__(self, grammar: Grammar, mark_verbatim: bool) -> None:
        self.grammar = grammar
        # code and math as Verbatim tokens, for a reader that writes into text (mentions);
        # otherwise plain text, merged with its neighbours into fewer pieces
        self._mark_verbatim = mark_verbatim
        self._base = 0  # the absolute offset of the scanner's buffer (the scanner moves it)
        self._line_start = True
        self._fence: str | None = None
        self._fence_col = -1  # for a fence in a list item: the column of the item's content
        self._code_line = False
        self._skip_line = False
        self._definition = False  # after a definition line: its indented lines go with it
        self._indented = False
        self._blank_before = True
        self._list_ctx = False
        self._html = False  # in an HTML block: its lines are its text, up to a blank line
        # for a "<pre>"-like block, which runs across blank lines to its closing tag: where its
        # text not yet searched for that tag starts (-1: none open), and the last characters
        # searched (a tag may be cut where the scanner's buffer is)
        self._raw_from = -1
        self._raw_carry = ""
        self._list_cont = 0  # the content column of the item that began the list context
        self._item_cont = 0  # the content column of the last item (a nested one's too)
        # where the line after an empty item that begins a list item at its top level starts:
        # a blank line there ends the item and the list
        self._empty_next = -1
        self._code_next = -1  # where the line after the last line of code starts
        self._quote_at = -1  # where the last line that begins a block quote starts
        self._src_head = -1
        self._src_scan = 0
        self._src_items: list[str] = []
        self._src_rejected = -1
        self._src_stop = -1  # where a stripped list ends before a closing line, else -1

    def _line(self, buf: str, pos: int, final: bool, out: list[Token]) -> int:
        """Classify the line at ``pos``; the next position to scan, or -1 to wait for more."""
        if (
            self._fence is None
            and not self._indented
            and PLAIN_LINE_START.match(buf, pos) is not None
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
            if self._fence_col < 0 or not self._outdented(line):
                return self._fenced_line(line, pos, nl, complete, out)
            if not complete:
                return -1  # what the line is decides whether the fence's item ends
            if not (self._blank_before or leaves_item(line)):
                return self._fenced_line(line, pos, nl, complete, out)
            self._fence, self._fence_col = None, -1  # the item ends, and its fence with it
        stripped = line.lstrip(" \t")
        if not complete and not stripped.strip("\r"):
            return -1
        if complete and not stripped.strip("\r"):
            out.append(buf[pos : nl + 1 if nl >= 0 else n])
            self._blank_before = True
            self._html = self._raw_from >= 0 and not self._raw_closed(buf, pos)
            if self._base + pos == self._empty_next:
                self._list_ctx = False
            return nl + 1 if nl >= 0 else n
        if (
            line[0] in " \t"  # most lines start unindented
            and indent_width(line) >= 4
            and not (self._list_ctx and stripped[0] in "`~")  # a fence in a nested item
            and not self._html  # (a "<pre>" block's, after a blank line)
        ):
            if self._definition:
                # CommonMark continues a footnote definition on indented lines (blank ones
                # between too), and a "[1]: url" one with its title: removed with it, never
                # left to join a code block the removed line used to end
                self._skip_line = True
                self._line_start = False
                return pos
            if self._list_ctx:
                # an item's own indented code: 4 columns past its content, where no paragraph
                # goes on (after a blank line, or right after an item that began empty or with
                # a closed comment)
                code_col = self._item_cont + 4
                width = indent_width(line, code_col)
                if width < self._item_cont:
                    self._item_cont = self._list_cont  # (the nested item ended)
                    code_col = self._item_cont + 4
                self._indented = width >= code_col and (
                    self._indented
                    or self._blank_before
                    or self._base + pos in (self._empty_next, self._code_next)
                )
                self._code_line = self._indented
            elif self._indented or self._blank_before:
                self._indented = self._code_line = True
            self._blank_before = self._line_start = False
            return pos
        self._indented = self._definition = False
        if self._html:
            if (
                not complete
                and self._list_ctx
                and (UNDECIDED.fullmatch(stripped) or LIST_PREFIX.fullmatch(stripped))
            ):
                return -1  # "~" may yet be a fence that ends the list item
            if not self._list_ctx or (
                self._in_item(line)
                or (LIST_ITEM.match(stripped) is None and ENDS_LIST.match(stripped) is None)
            ):
                # no fence, heading, rule or list item inside an HTML block: text to a blank line
                self._line_start = False
                return pos
            self._html = False  # a list item ends (a new one, or a block breaks it): its HTML too
            self._raw_from = -1
        first = stripped[0]
        if first in "`~":
            fence = FENCE_OPEN.match(stripped)
            run_open = fence is not None and fence.end() == len(stripped)
            if not complete and (
                run_open
                or (fence is None and len(set(stripped)) == 1)
                or (first == "`" and fence is not None and len(stripped) - fence.end() <= MAX_INFO)
            ):
                return -1  # (a backtick later on the line would make it no fence)
            if fence is not None:
                # a fence indented in a list item is the item's: the list goes on after it
                self._list_ctx = self._list_ctx and self._in_item(line)
                self._open_fence(fence[0], len(line) - len(stripped) if self._list_ctx else -1)
                return pos
        elif first == "[":
            label = FOOTDEF.match(stripped) or (
                FOOTDEF_BARE.match(stripped) if self.grammar.bare_groups() else None
            )
            if label is not None:
                # the source a definition names is cited where nothing else did (resolver)
                out.append(Marker("listed", "", self._base + pos, ids=(label[0],)))
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
            inline = one_line_source_items(line)
            if inline is not None or HEADING.fullmatch(line):
                verdict = self._source_list(buf, pos, nl, final, inline or [])
                if verdict == "need":
                    return -1
                if verdict == "strip":
                    return self._strip_list(buf, pos, out)
                self._src_rejected = self._base + pos
        if not complete and (LIST_PREFIX.fullmatch(stripped) or UNTIL_END.fullmatch(stripped)):
            return -1
        in_list = self._list_ctx
        # right after a paragraph line: "-" underlines it, an empty item cannot interrupt it
        # (the line before was no code: _code_next holds across a wait, unlike _indented)
        para = not (in_list or self._blank_before) and self._code_next != self._base + pos
        ends = False  # the line is a block that ends on it: indented code may follow directly
        if para and first in "=-" and SETEXT.fullmatch(stripped):
            # "Text" then "-" or "---": a heading, not an empty list item or a rule; written as
            # one token, with its line break ("===\r" waits for its "\n")
            if not complete:
                return -1
            end = nl + 1 if nl >= 0 else n
            out.append(Underline(buf[pos:end]))
            self._blank_before = True  # (not in a list: indented code may follow directly)
            return end
        if (
            first in "*-_"
            # a rule's third character is its own or a space (most list items' is not)
            and ((third := stripped[2:3]) == first or third == " " or third == "\t")
            and THEMATIC.fullmatch(stripped)
        ):
            if self.grammar.is_source_list is not None and self._src_rejected != self._base + pos:
                # a rule right above a stripped source list goes with it
                listed = self._rule_list(buf, pos, nl, final, out)
                if listed is not None:
                    return listed
            # "- - -" and "***" are rules, not list items; one indented in a list stays in it
            self._list_ctx = in_list and self._in_item(line)
            ends = True
        elif (item := LIST_ITEM.match(stripped)) is not None and not (
            para and cannot_interrupt(stripped)
        ):
            end = item.end()
            fence = None
            if (after := stripped[end : end + 1]) in ("`", "~", " "):  # (most begin with a word)
                content = stripped[end:].lstrip(" ")
                fence = FENCE_OPEN.match(content) if content[:1] in "`~" else None
                if (
                    not complete
                    and content[:1] in "`~"
                    and (
                        fence is None
                        or fence.end() == len(content)
                        or (content[0] == "`" and len(content) - fence.end() <= MAX_INFO)
                    )
                ):
                    return -1  # "- ``" may open a fence ("- ```") or a code span
            html = False
            if after == "<":  # "- <div>": an HTML block begins the item's content
                content = stripped[end:]
                if not complete and (HTML_PREFIX.fullmatch(content) or content[1:2] == "!"):
                    return -1
                html = html_block_starts(content) or HTML_TAG_LINE.fullmatch(content) is not None
                self._raw_from = self._base + pos if RAW_OPEN.match(content) else -1
                if nl >= 0 and content.startswith("<!--") and "-->" in content[4:]:
                    self._code_next = self._base + nl + 1  # a closed comment ends on its line
            self._list_ctx = True
            indent = len(line) - len(stripped)
            if not in_list or indent < self._list_cont:  # the list's first item, or a sibling
                if after and after not in " \t\r`~":
                    self._list_cont = indent + end  # "- word": one space after the marker
                else:
                    self._begin_item(stripped, indent, end, nl)
                self._item_cont = self._list_cont
            elif after and after not in " \t\r`~":
                self._item_cont = indent + end
            else:
                self._item_cont = content_column(stripped, indent, end)
            if fence is not None:  # "- ```": the item's content is fenced code
                self._open_fence(fence[0], len(line) - len(content))
                return pos
            self._html = html
        else:
            if not complete and in_list and not self._blank_before and UNDECIDED.fullmatch(line):
                return -1  # "#" may be a heading (ends the list) or "#tag" (does not)
            if first == ">":
                self._quote_at = self._base + pos  # (a code span in it may go on in the quote)
            elif first == "<":
                if not complete and (HTML_PREFIX.fullmatch(stripped) or stripped[1:2] == "!"):
                    return -1  # "<di" may be "<div>", "<span>" a line of its own or not
                # a comment closed on its line ends there, as a heading does
                ends = stripped.startswith("<!--") and "-->" in stripped[4:]
                self._raw_from = self._base + pos if RAW_OPEN.match(stripped) else -1
                self._html = html_block_starts(stripped) or (
                    (self._blank_before or self._code_next == self._base + pos)
                    and HTML_TAG_LINE.fullmatch(stripped) is not None
                )
            self._list_ctx = continues_list(in_list, self._blank_before, line, self._list_cont)
            ends = ends or (first == "#" and ATX.match(stripped) is not None)
        self._blank_before = ends and not self._list_ctx
        self._line_start = False
        return pos

    def _raw_closed(self, buf: str, end: int) -> bool:
        """Whether the open ``<pre>``-like block's closing tag is in the text up to ``end``
        (then the block ends at a blank line, as others do); searches each character once."""
        text = self._raw_carry + buf[max(self._raw_from - self._base, 0) : end]
        closed = RAW_CLOSE_TAG.search(text) is not None
        self._raw_from, self._raw_carry = (-1, "") if closed else (self._base + end, text[-12:])
        return closed

    def _in_item(self, line: str) -> bool:
        """Whether ``line`` is indented as the content of the list's top-level item."""
        return line[0] in " \t" and indent_width(line, self._list_cont) >= self._list_cont

    def _begin_item(self, stripped: str, indent: int, marker_end: int, nl: int) -> None:
        """Note where the content of a list's top-level item starts (``stripped`` is its line
        from its marker on), and where the line after it starts when it is empty: a blank line
        there ends the item and the list (``-`` / blank / indented code)."""
        self._list_cont = content_column(stripped, indent, marker_end)
        after = stripped[marker_end : marker_end + 1]
        if nl >= 0 and after in ("", " ", "\t", "\r") and EMPTY_ITEM.fullmatch(stripped):
            self._empty_next = self._base + nl + 1
