"""The marker grammar: find citation markers in text, batch or streaming, never inside code.

:class:`MarkerScanner` reads the raw answer (all at once, or delta by delta) and turns it into
tokens: ``str`` for text to keep exactly as written, :class:`~bot.marker_parse.Marker` for a
citation marker. It is markdown-aware without a markdown parse: one forward pass that knows
fenced code (an unterminated fence runs to the end), indented code, code spans with matching
backtick runs, and ``$…$`` / ``$$…$$`` math, and skips them.

At each line start it also removes what the model should not have written: footnote definition
lines (``[^1]: …``, and ``[1]: …`` where bare numbers are markers) and, when the grammar has an
``is_source_list`` judge, a trailing "Sources:" / "References:" list the judge accepts.

Streaming: a decision is taken only when the text seen so far settles it, so the tokens of any
split concatenate to the tokens of the whole text. Undecided tails are bounded: a bracket group
or a parenthesised ``(Source 3)`` 64 characters, a ``<citation>`` tag or a code span 1,024, a
trailing source list 8,192.

Documented simplifications of CommonMark: a backtick fence opens on three or more backticks
whatever its info string; code spans and inline math longer than 1,024 characters are not
recognized; a 4-space indented line is code only after a blank line and outside a list.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_keys import parse_double
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
    OPEN_BRACKETS,
    code_span,
    could_be_heading,
    indent_width,
    math_span,
    merge_text,
    read_source_items,
)
from bot.marker_paren import parse_paren
from bot.marker_parse import (
    NEED,
    Grammar,
    Hit,
    Marker,
    Parsed,
    parse_angle,
    parse_bracket,
    parse_cjk,
    parse_private,
)

__all__ = ["Grammar", "Marker", "MarkerScanner", "Token", "Verbatim", "find_markers"]


class Verbatim(str):
    """Text the scanner passes on as written and no one may write into: code and math. (A
    ``str``, so it reads as text; the resolver cites no record label inside it.)"""

    __slots__ = ()


Token = str | Marker

_SPECIAL = re.compile("[\\[<`$\\\\\n【\ue200-\ue202(]")
# A line start that begins no construct: most characters, and a word with a heading initial
# that is complete (followed by a non-letter) and is not the first word of a heading word.
_HEADING_FIRST_WORDS = "|".join(sorted({word.split()[0] for word in HEADING_WORDS}))
_PLAIN_LINE_START = re.compile(
    r"[^ \t\r\n`~\[#*_+>\-\d\ue200-\ue202sSrRcCbBwW]"
    rf"|(?!(?i:{_HEADING_FIRST_WORDS})[^a-zA-Z])[sSrRcCbBwW][a-zA-Z]{{0,15}}[^a-zA-Z]"
)
_ASCII_PUNCT: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def find_markers(text: str, grammar: Grammar | None = None) -> list[Marker]:
    """Every marker in ``text`` (outside code and math), in order of appearance."""
    scanner = MarkerScanner(grammar or Grammar())
    tokens = scanner.scan_all(text)
    return [token for token in tokens if isinstance(token, Marker) and token.family != "stray"]


class MarkerScanner:
    """Incremental, markdown-aware marker scanner with a bounded hold-back."""

    def __init__(self, grammar: Grammar, mark_verbatim: bool = False) -> None:
        self.grammar = grammar
        # code and math as Verbatim tokens, for a reader that writes into text (mentions);
        # otherwise plain text, merged with its neighbours into fewer pieces
        self._mark_verbatim = mark_verbatim
        self._buf = ""
        self._pos = 0
        self._base = 0
        self._final = False
        self._prev = ""
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
        self._math_clear = (0, 0)

    def feed(self, text: str) -> list[Token]:
        """Tokens that ``text`` (appended to what came before) makes certain."""
        if self._final:
            raise ValueError("feed() after finish()")
        if text and _SPECIAL.search(text) is None and not (self._skip_line or self._code_line):
            # fast path for streams: plain text, at most spaces pending, no decision to take
            if (
                self._line_start
                and not self._buf
                and self._fence is None
                and not self._indented
                and _PLAIN_LINE_START.match(text) is not None
            ):
                self._line_start = self._list_ctx = self._blank_before = self._definition = False
            if not self._line_start and not self._buf.strip(" \t"):
                combined = self._buf + text
                body = combined.rstrip(" \t")
                self._buf = combined[len(body) :]
                if not body:
                    return []
                self._prev = body[-1]
                self._base += len(body)
                return [body]
        self._buf += text
        return self._run()

    def settled(self) -> bool:
        """Nothing but spaces is held back and no line start is pending.

        Then gathering plain text before scanning it delays no decision (a caller may batch it).
        """
        return not self._line_start and not self._final and not self._buf.strip(" \t")

    def scan_all(self, text: str) -> list[Token]:
        """All tokens of a complete text: the same as ``feed(text) + finish()``, in one pass."""
        if self._final or self._buf or self._base:
            raise ValueError("scan_all() on a used scanner")
        self._buf = text
        return self.finish()

    def finish(self) -> list[Token]:
        """The remaining tokens: the end of the text settles every open question."""
        self._final = True
        return self._run()

    # -- the pass -----------------------------------------------------------------------------

    def _run(self) -> list[Token]:
        out: list[Token] = []
        buf = self._buf
        pos = self._pos
        n = len(buf)
        final = self._final
        while pos < n:
            if self._skip_line or self._code_line:
                nl = buf.find("\n", pos)
                end = n if nl < 0 else nl + 1
                if self._code_line:
                    code = buf[pos:end]
                    out.append(Verbatim(code) if self._mark_verbatim else code)
                pos = end
                if nl >= 0:
                    self._skip_line = self._code_line = False
                    self._line_start = True
                continue
            if self._line_start:
                next_pos = self._line(buf, pos, final, out)
                if next_pos < 0:
                    break
                pos = next_pos
                continue
            match = _SPECIAL.search(buf, pos)
            if match is None:
                end = n if final else len(buf.rstrip(" \t"))
                if end > pos:
                    out.append(buf[pos:end])
                    pos = end
                break
            at = match.start()
            char = buf[at]
            if char == "\n":
                out.append(buf[pos : at + 1])
                pos = at + 1
                if (
                    self._fence is None
                    and not self._indented
                    and _PLAIN_LINE_START.match(buf, pos) is not None
                ):
                    # as _line() would decide
                    self._list_ctx = self._blank_before = self._definition = False
                else:
                    self._line_start = True
                continue
            lead = ""
            if at > pos:
                text = buf[pos:at]
                body = text.rstrip(" \t")
                if body:
                    out.append(body)
                lead = text[len(body) :]
            start = at - len(lead)
            if char == "[" and buf.startswith("[[[", at):
                # only the last two of a run of "[" can open a marker ("[[" keys, "[[1]](url)")
                run_end = OPEN_BRACKETS.match(buf, at).end()  # type: ignore[union-attr]
                out.append(lead + buf[at : run_end - 2])
                pos = run_end - 2
                continue
            result = self._inline(buf, at, final, char)
            if result is NEED:
                pos = start
                break
            if result is None:
                out.append(lead + char)
                pos = at + 1
            else:
                assert isinstance(result, Hit)
                marker = result.marker
                if marker is None:
                    # code and math are verbatim; a link is not (a stream cannot tell one from
                    # bracketed text until it closes, and both must read the same)
                    text = lead + buf[at : result.end]
                    out.append(Verbatim(text) if self._mark_verbatim and char in "`$" else text)
                else:
                    # rebuilt positionally: much cheaper than NamedTuple._replace on this path
                    out.append(Marker(marker[0], marker[1], self._base + at, *marker[3:10], lead))
                pos = result.end
        if pos > 0:
            self._prev = buf[pos - 1]
            self._buf = buf[pos:]
            self._base += pos
        self._pos = 0
        return merge_text(out) if len(out) > 1 else out

    def _inline(self, buf: str, at: int, final: bool, char: str) -> Parsed:
        if char == "[":
            prev = buf[at - 1] if at > 0 else self._prev
            if buf.startswith("[[", at):
                return parse_double(buf, at, final, self.grammar, prev)
            return parse_bracket(buf, at, final, self.grammar, prev)
        if char == "<":
            return parse_angle(buf, at, final)
        if char == "`":
            return code_span(buf, at, final)
        if char == "$":
            return self._math(buf, at, final)
        if char == "\\":
            if at + 1 >= len(buf):
                return None if final else NEED
            return Hit(at + 2, None) if buf[at + 1] in _ASCII_PUNCT else None
        if char == "【":
            return parse_cjk(buf, at, final)
        if char == "(":
            return parse_paren(buf, at, final, self.grammar)
        return parse_private(buf, at, final)

    def _math(self, buf: str, at: int, final: bool) -> Parsed:
        found, clear = math_span(buf, at, final, self._base, self._math_clear)
        self._math_clear = clear
        return found

    # -- line starts --------------------------------------------------------------------------

    def _line(self, buf: str, pos: int, final: bool, out: list[Token]) -> int:
        """Classify the line at ``pos``; the next position to scan, or -1 to wait for more."""
        if self._fence is None and not self._indented and _PLAIN_LINE_START.match(buf, pos):
            # the common case: a paragraph line whose first character starts no construct
            self._list_ctx = self._blank_before = self._line_start = self._definition = False
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
        if indent_width(line) >= 4:
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
            self._list_ctx = self._list_ctx and line[:1] in " \t"
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
