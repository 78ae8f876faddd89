"""Which lines of a complete text are code, read by the resolver's scanner's own line rules.

The claims' code masking (:func:`bot.claims.mask_code`) asks this, so grounding takes for code
exactly the lines the scanner took for code when it resolved the answer: fences (also in list
items, ending with their item and taking its lazy lines), indented code after a blank line or a
block that ends on its line, the list context with its items' content column, empty items and
ordered items not numbered 1 that cannot interrupt a paragraph, setext underlines and HTML blocks
up to a blank line. Those rules live once, in :class:`bot.marker_line_starts.LineStarts` and the
patterns of :mod:`bot.marker_blocks`; this only drives its line decision over whole lines.

Lines split at ``\\n`` only, as the scanner and mistune split them.
"""

from __future__ import annotations

import re

from bot.marker_blocks import Paragraph, breaks_paragraph
from bot.marker_line_starts import LineStarts, Token
from bot.marker_parse import Grammar

__all__ = ["CODE", "GOES_ON", "OPENS", "RAW", "code_lines", "line_kinds"]

CODE, RAW, OPENS, GOES_ON = range(4)

_QUOTED = re.compile(r"[ \t]{0,3}>")


class _CodeLines(LineStarts):
    """A scanner's line state, fed whole lines of a finished text (no stream waits)."""

    def __init__(self) -> None:
        # "[1]: …" is no definition line where bare numbers are no markers (the answer's are
        # "[^n]"); no source-list judge either. A "[^1]: …" line (and its indented lines) is
        # the scanner's footnote definition, no code; the resolver removed those already.
        super().__init__(Grammar(bare_numbers=False), mark_verbatim=False)

    def read(self, text: str) -> list[int]:
        """The kind of each line: CODE, RAW, OPENS or GOES_ON."""
        kinds: list[int] = []
        scratch: list[Token] = []
        pos, n = 0, len(text)
        # the paragraph the line before belongs to, when a code span may run on from it (None:
        # code, blank, raw HTML, a block of its own line, or a paragraph with no backtick yet)
        paragraph: Paragraph | None = None
        while pos < n:
            nl = text.find("\n", pos)
            end = n if nl < 0 else nl + 1
            fenced = self._fence is not None
            joined = paragraph is not None and not breaks_paragraph(
                text[pos : nl if nl >= 0 else n], paragraph
            )
            taken = self._line(text, pos, True, scratch)
            # a closing fence is taken whole (returns past its line), and is code
            code = self._code_line or (fenced and self._fence is None and taken != pos)
            if self._code_line:
                self._code_next = end  # as the scanner notes it: no paragraph goes on after code
            self._code_line = self._skip_line = False
            self._line_start = True
            if code:
                kinds.append(CODE)
                paragraph = None
            elif self._html:
                kinds.append(RAW)
                paragraph = None
            elif joined:
                kinds.append(GOES_ON)
            else:
                kinds.append(OPENS)
                paragraph = None
                if text.find("`", pos, end) >= 0 and not self._blank_before:  # (no heading)
                    quoted = _QUOTED.match(text, pos) is not None
                    paragraph = Paragraph(False, self._list_ctx, self._list_cont, quoted)
            pos = end
        return kinds


def code_lines(text: str) -> list[bool]:
    """For each ``\\n``-separated line of ``text`` (the last one too when ``text`` ends without
    a newline), whether it is a line of code (fenced or indented) as the scanner reads it."""
    return [kind == CODE for kind in _CodeLines().read(text)]


def line_kinds(text: str) -> list[int]:
    """For each line as :func:`code_lines` cuts them: CODE (fenced or indented), RAW (in an HTML
    block: mistune reads no code span there), GOES_ON (prose that goes on the paragraph of the
    line before, so a code span may run into it: :func:`bot.marker_blocks.breaks_paragraph`)
    or OPENS (any other line: prose that begins a paragraph, a heading, a blank line)."""
    return _CodeLines().read(text)
