"""Fenced code at the marker grammar's line starts (a base of marker_line_starts.LineStarts).

A fence opens on a line (also one in a list item, whose content column its lines and closing
fence are indented to); every line up to the closing fence is a code line, and the closing
fence is written as a :class:`bot.marker_tokens.Verbatim` token when the scan marks code. A
line of a fence in a list item that is indented less than the item's content may end the
item, and the fence with it: :class:`bot.marker_line_starts.LineStarts` decides that before it
hands the line here.
"""

from __future__ import annotations

from bot.marker_lines import FENCE_CLOSE, FENCE_CLOSE_PARTIAL, indent_width
from bot.marker_tokens import Token, Verbatim


class FencedCode:
    """The fence state of a scan (set up by LineStarts) and its decisions."""

    _mark_verbatim: bool
    _line_start: bool
    _blank_before: bool
    _list_ctx: bool
    _code_line: bool
    _fence: str | None
    _fence_col: int

    def _open_fence(self, fence: str, column: int) -> None:
        """A fence opens on this line (``column``: its list item's content column, or -1)."""
        self._fence, self._fence_col = fence, column
        self._code_line = True
        self._blank_before = self._line_start = False

    def _outdented(self, line: str) -> bool:
        """Whether ``line`` is not blank and indented less than the content of the list item
        that a fence is in (it may end the item: ``leaves_item``)."""
        return line.strip(" \t\r") != "" and indent_width(line, self._fence_col) < self._fence_col

    def _fenced_line(self, line: str, pos: int, nl: int, complete: bool, out: list[Token]) -> int:
        fence = self._fence
        assert fence is not None
        col = self._fence_col
        # in a list item, the closing fence is indented as the item's content
        own = line[col:] if col > 0 and line.startswith(" " * col) else line
        if not complete and FENCE_CLOSE_PARTIAL.fullmatch(own):
            return -1
        close = FENCE_CLOSE.fullmatch(own) if complete else None
        if close is not None and close[1][0] == fence[0] and len(close[1]) >= len(fence):
            closing = line + ("\n" if nl >= 0 else "")
            out.append(Verbatim(closing) if self._mark_verbatim else closing)
            self._fence, self._fence_col = None, -1
            self._blank_before = not self._list_ctx  # indented code may follow directly
            return nl + 1 if nl >= 0 else pos + len(line)
        if col > 0:
            self._blank_before = not line.strip(" \t\r")  # an item's line after it may end it
        self._code_line = True
        self._line_start = False
        return pos
