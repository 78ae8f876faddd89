"""The marker grammar: find citation markers in text, batch or streaming, never inside code.

:class:`MarkerScanner` reads the raw answer (all at once, or delta by delta) and turns it into
tokens: ``str`` for text to keep exactly as written, :class:`~bot.marker_parse.Marker` for a
citation marker. It is markdown-aware without a markdown parse: one forward pass that knows
fenced code (an unterminated fence runs to the end), indented code, code spans with matching
backtick runs, ``$…$`` / ``$$…$$`` math and autolinks (``<https://…?x=[2]>``, whose address
stays as written: :mod:`bot.marker_autolinks`), and skips them.

At each line start it also removes what the model should not have written: footnote definition
lines (``[^1]: …``, and ``[1]: …`` where bare numbers are markers) and, when the grammar has an
``is_source_list`` judge, a trailing "Sources:" / "References:" list the judge accepts. Those
line-level decisions are its base's, :class:`bot.marker_line_starts.LineStarts`; this module
reads the text within lines.

Streaming: a decision is taken only when the text seen so far settles it, so the tokens of any
split concatenate to the tokens of the whole text. Undecided tails are bounded: a superscript
run (:mod:`bot.marker_superscripts`) 32 characters, a bracket group (also one that may close as
a link's text) or a parenthesised ``(Source 3)`` 64, an HTML comment
(:mod:`bot.marker_comments`) 160, a ``<citation>`` tag, a code span or an emphasis run around
markers (:mod:`bot.marker_emphasis`) 1,024, an autolink 2,048, a trailing source list 8,192.

Documented simplifications of CommonMark (mistune, which renders the answer, is the reference):
code spans and inline math longer than 1,024 characters are not recognized (a code span runs
across the line ends of its paragraph: :mod:`bot.marker_spans`); a 4-space indented line is code
after a blank line or a block that ends on its line (in a list: indented 4 columns past the last
item's content, the nested item's too, or right after an item that began empty); an HTML block
(block-level tag, or one simple tag alone on its line) runs to a blank line (``<pre>``,
``<script>``, ``<style>`` and ``<textarea>`` to the first blank line after their closing tag,
where mistune ends them on the tag's line), and no code span is read inside it (mistune keeps
it raw, and its citations count).
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_autolinks import autolink, is_autolink
from bot.marker_blocks import Paragraph
from bot.marker_comments import parse_comment
from bot.marker_emphasis import MARKER_START, Wrapped, emphasis_group, emphasis_opener
from bot.marker_keys import parse_double
from bot.marker_line_starts import PLAIN_LINE_START, LineStarts, Token, Underline, Verbatim
from bot.marker_lines import OPEN_BRACKETS, math_span, merge_text
from bot.marker_model_tags import parse_model_tag
from bot.marker_paren import parse_paren
from bot.marker_parse import NEED, Grammar, Hit, Marker, Parsed, parse_bracket
from bot.marker_parse_tags import parse_angle, parse_cjk, parse_private
from bot.marker_spans import code_span
from bot.marker_styles import parse_caret, parse_sup
from bot.marker_superscripts import LOOKBACK, parse_superscript
from bot.marker_superscripts import STARTS as SUPERSCRIPT_STARTS

__all__ = ["Grammar", "Marker", "MarkerScanner", "Token", "Underline", "Verbatim", "find_markers"]

_SPECIAL = re.compile(f"[\\[<`$\\\\\n【［\ue200-\ue202(（^{SUPERSCRIPT_STARTS}]")
_NEWLINES = re.compile("\n+")
_MODEL_TAG_START = re.compile(r"<(?:cite[ \t>]|/?co:|/cite)", re.IGNORECASE)  # (marker_model_tags)
_NOT_IN_TEXT: Final = frozenset({"stray", "listed", "opener"})
_ASCII_PUNCT: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


# what the end of a text waits with: spaces (a marker may take them) and an emphasis run (it
# may open "_[9]_", which goes with the marker)
_HELD_END: Final = " \t*_"


def find_markers(text: str, grammar: Grammar | None = None) -> list[Marker]:
    """Every marker in ``text`` (outside code and math), in order of appearance."""
    scanner = MarkerScanner(grammar or Grammar())
    tokens = scanner.scan_all(text)
    return [
        token for token in tokens if isinstance(token, Marker) and token.family not in _NOT_IN_TEXT
    ]


class MarkerScanner(LineStarts):
    """Incremental, markdown-aware marker scanner with a bounded hold-back."""

    def __init__(self, grammar: Grammar, mark_verbatim: bool = False) -> None:
        super().__init__(grammar, mark_verbatim)
        self._buf = ""
        self._pos = 0
        self._final = False
        self._prev = ""
        self._recent = ""  # the last LOOKBACK characters cut from the buffer (superscripts)
        self._math_clear = (0, 0)
        # where the last emphasis run that went with markers ended (absolute, so a stream cut
        # there reads the same): a "[" right at it follows a marker (see _inline)
        self._emph_end = -1
        self._cite_open: tuple[int, ...] = ()  # the sources of an open <cite index="…">

    def feed(self, text: str) -> list[Token]:
        """Tokens that ``text`` (appended to what came before) makes certain."""
        if self._final:
            raise ValueError("feed() after finish()")
        if (
            text
            and _SPECIAL.search(text) is None
            and not (self._skip_line or self._code_line)
            and self._raw_from < 0  # (a "<pre>" block's text is searched for its closing tag)
        ):
            # fast path for streams: plain text, at most spaces pending, no decision to take
            if (
                self._line_start
                and not self._buf
                and self._fence is None
                and not self._indented
                and PLAIN_LINE_START.match(text) is not None
            ):
                self._list_ctx = self._list_ctx and not self._blank_before
                self._line_start = self._blank_before = self._definition = False
            if not self._line_start and not self._buf.strip(" \t"):
                combined = self._buf + text
                body = combined.rstrip(_HELD_END)
                self._buf = combined[len(body) :]
                if not body:
                    return []
                self._prev = body[-1]
                self._recent = (self._recent + body[-LOOKBACK:])[-LOOKBACK:]
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
                    self._code_next = self._base + end  # no paragraph goes on after code
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
                end = n if final else len(buf.rstrip(_HELD_END))
                if end > pos:
                    out.append(buf[pos:end])
                    pos = end
                break
            at = match.start()
            char = buf[at]
            if char == "\n":
                # blank lines right after it are taken with it, as _line() would take them
                # (one between two paragraphs is the commonest line start of all)
                end = _NEWLINES.match(buf, at).end()  # type: ignore[union-attr]
                if end > at + 1:
                    self._blank_before = True
                    self._html = self._raw_from >= 0 and not self._raw_closed(buf, at)
                    if self._base + at + 1 == self._empty_next:
                        self._list_ctx = False  # an empty item's top level ends at a blank
                out.append(buf[pos:end])
                pos = end
                if (
                    self._fence is None
                    and not self._indented
                    and PLAIN_LINE_START.match(buf, pos) is not None
                ):
                    # as _line() would decide
                    self._list_ctx = self._list_ctx and not self._blank_before
                    self._blank_before = self._definition = False
                else:
                    self._line_start = True
                continue
            lead = emph = ""
            if at > pos:
                text = buf[pos:at]
                body = text.rstrip(" \t")
                if char in MARKER_START and text[-1] in "*_":
                    # "_[9]_", "**[1][2]**", "_**[1]**_": the emphasis goes with the markers
                    # it alone wraps
                    emph = emphasis_opener(text, self._prev if pos == 0 else buf[pos - 1])
                    if emph:
                        body = text[: -len(emph)].rstrip(" \t")
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
            cite_open = self._cite_open  # (restored when an emphasis group must wait)
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
                    # code, math and autolinks are verbatim; a bracket link is not (a stream
                    # cannot tell one from bracketed text until it closes, and both must read
                    # the same)
                    text = lead + buf[at : result.end]
                    verbatim = char in "`$" or (char == "<" and is_autolink(buf, at))
                    out.append(Verbatim(text) if self._mark_verbatim and verbatim else text)
                elif emph:
                    group = self._emphasized(buf, start, (at, result), emph, final)
                    if group is None:
                        self._cite_open = cite_open
                        pos = start  # the closing run may still come: decided with more text
                        break
                    if not group:
                        out.append(lead)  # the writer's own emphasis: text
                        out.append(Marker(marker[0], marker[1], self._base + at, *marker[3:10]))
                        pos = result.end
                        continue
                    pos = self._emphasis_tokens(buf, group, lead, out)
                    continue
                else:
                    # rebuilt positionally: much cheaper than NamedTuple._replace on this path
                    out.append(Marker(marker[0], marker[1], self._base + at, *marker[3:10], lead))
                pos = result.end
        if pos > 0:
            if self._raw_from >= 0:
                self._raw_closed(buf, pos)  # (before the text is cut from the buffer)
            if (
                self._quote_at >= 0
                and buf.find("\n", max(self._quote_at - self._base, 0), pos) >= 0
            ):
                self._quote_at = -1  # (the quoted line it noted is cut from the buffer)
            self._prev = buf[pos - 1]
            self._recent = (self._recent + buf[max(pos - LOOKBACK, 0) : pos])[-LOOKBACK:]
            self._buf = buf[pos:]
            self._base += pos
        self._pos = 0
        return merge_text(out) if len(out) > 1 else out

    def _emphasized(
        self, buf: str, start: int, first: tuple[int, Hit], emph: str, final: bool
    ) -> list[Wrapped] | None:
        """The markers that the emphasis runs ``emph`` at ``start`` wrap alone (see
        :func:`bot.marker_emphasis.emphasis_group`); the scanner's state as after the last of
        them (as after ``first`` unless they are decided)."""
        cite_open = self._cite_open
        states: dict[int, tuple[int, ...]] = {}  # the state after each marker read

        def parse(at: int, after_run: bool) -> Parsed:
            found = self._inline(buf, at, final, buf[at], after_run)
            states[at] = self._cite_open
            return found

        group = emphasis_group(buf, start, first, emph, final, parse)
        self._cite_open = states.get(group[-1].at, cite_open) if group else cite_open
        return group

    def _emphasis_tokens(self, buf: str, group: list[Wrapped], lead: str, out: list[Token]) -> int:
        """The tokens of an emphasised group of markers, appended to ``out``: each marker's raw
        holds the runs that go with it, and the separators between them are text as elsewhere
        (``lead``, the spaces and runs before the first marker, is text up to the runs that go
        with it: ``_**[1]**`` keeps its ``_``); where the scan goes on."""
        first = group[0]
        lead = lead[: len(lead) - (first.at - first.start)]
        end = first.start
        for item in group:
            marker = item.hit.marker
            assert marker is not None
            if item is not first:
                lead = buf[end : item.start]
            body = lead.rstrip(" \t")
            if body:
                out.append(body)
            raw = buf[item.start : item.at] + marker[1] + buf[item.hit.end : item.end]
            lead = lead[len(body) :]
            out.append(Marker(marker[0], raw, self._base + item.start, *marker[3:10], lead))
            end = item.end
        self._emph_end = self._base + end
        return end

    def _inline(self, buf: str, at: int, final: bool, char: str, after_run: bool = False) -> Parsed:
        if char == "[":
            prev = buf[at - 1] if at > 0 else self._prev
            if after_run or self._base + at == self._emph_end:
                # "_[2]_[n]": the closing "_" is the markers', not a word's end, so what follows
                # reads as after "[2]" ("[2][n]": the "[n]" a placeholder); kept as text, it
                # would read as one once the resolver writes "[^1][n]" or drops the group
                prev = "]"
            if buf.startswith("[[", at):
                return parse_double(buf, at, final, self.grammar, prev)
            return parse_bracket(buf, at, final, self.grammar, prev)
        if char == "<":
            if _MODEL_TAG_START.match(buf, at) is not None or len(buf) - at < 6:
                tag = parse_model_tag(buf, at, final, self._cite_open, self.grammar.model_cites)
                if tag is not None:
                    if isinstance(tag, Hit) and tag.marker is not None:
                        # "<cite index=…>" opens what its "</cite>" cites; "</cite>" closes it
                        family = tag.marker.family
                        if family == "opener" or tag.marker.raw[:2] == "</":
                            self._cite_open = tag.marker.numbers if family == "opener" else ()
                    return tag
            if buf.startswith("!", at + 1):
                return parse_comment(buf, at, final)  # "<!-- … -->": nothing in it is read
            if not self._html:  # (an HTML block is raw text to mistune, as for code spans)
                link = autolink(buf, at, final)  # "<https://…?x=[2]>": its address as written
                if link is not None:
                    return link
            found = parse_angle(buf, at, final)
            if found is not None or buf[at + 1 : at + 2] not in ("s", "S"):
                return found
            prev = buf[at - 1] if at > 0 else self._prev
            return parse_sup(buf, at, final, self.grammar, prev)
        if char == "^":
            return parse_caret(buf, at, final, self.grammar, buf[at - 1] if at > 0 else self._prev)
        if char == "`":
            if self._html:
                return None  # an HTML block is raw text to mistune: its citations count
            quote = self._quote_at - self._base
            quoted = self._quote_at >= 0 and buf.find("\n", max(quote, 0), at) < 0
            paragraph = Paragraph(self._blank_before, self._list_ctx, self._list_cont, quoted)
            return code_span(buf, at, final, paragraph)
        if char == "$":
            return self._math(buf, at, final)
        if char == "\\":
            if at + 1 >= len(buf):
                return None if final else NEED
            return Hit(at + 2, None) if buf[at + 1] in _ASCII_PUNCT else None
        if char == "【" or char == "［":
            return parse_cjk(buf, at, final, self.grammar)
        if char == "(" or char == "（":
            return parse_paren(buf, at, final, self.grammar)
        if char in SUPERSCRIPT_STARTS:
            before = buf[max(at - LOOKBACK, 0) : at]
            if at < LOOKBACK:
                before = (self._recent + before)[-LOOKBACK:]
            return parse_superscript(buf, at, final, self.grammar, before)
        return parse_private(buf, at, final)

    def _math(self, buf: str, at: int, final: bool) -> Parsed:
        found, clear = math_span(buf, at, final, self._base, self._math_clear)
        self._math_clear = clear
        return found
