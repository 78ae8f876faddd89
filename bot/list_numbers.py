"""Ordered lists that lost items to removed markers: their later items are numbered down.

``1. [9]`` / ``2. Real item`` / ``3. Other`` used to leave a list starting at 2 (and a gap in
every plain-text channel); the resolver writes ``1. Real item`` / ``2. Other``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Final

from bot.marker_lines import last_line_nests

_LOOK_BACK = 1024  # how far back a removed line's context is looked for


@dataclass(frozen=True)
class Renumbering:
    """An ordered list some of whose items the resolver removed, still being written.

    Its later items (``indent`` and ``delimiter`` as the removed one's) are numbered down by
    ``shift`` when their number is above ``first`` (the first removed item's), so ``1. [9]`` /
    ``2. Real`` / ``3. Other`` reads ``1. Real`` / ``2. Other`` in every channel, markdown or
    plain text. A list numbered ``1.`` throughout keeps its numbers.
    """

    indent: str
    delimiter: str
    first: int
    shift: int = 1
    blank: bool = False  # a blank line came last: a paragraph at the list's indent ends it


_ORDERED = re.compile(r"([ \t]*)(\d{1,9})([.)])")
_LINE_START = re.compile(r"([ \t]*)(?:(\d{1,9})([.)])(?=[ \t\r\n]|\Z))?")
_ENDS_LIST: Final = frozenset("#`~>-*+|")


def removed_item(prefix: str, current: Renumbering | None) -> Renumbering | None:
    """The renumbering after the resolver removed the list item line that began ``prefix``."""
    m = _ORDERED.fullmatch(prefix.rstrip(" \t\r"))
    if m is None:
        return current  # a bullet or quote: nothing to renumber
    indent, number, delimiter = m[1], int(m[2]), m[3]
    if (
        current is not None
        and current.indent == indent
        and current.delimiter == delimiter
        and number > current.first
    ):
        return dataclasses.replace(current, shift=current.shift + 1, blank=False)
    return Renumbering(indent, delimiter, number)


def renumber(text: str, at_line_start: bool, state: Renumbering) -> tuple[str, Renumbering | None]:
    """``text`` (written after a removed item) with the list's later items renumbered.

    Returns the new text and the state for what follows: None once the list has ended (a line
    indented less than it, or at its indent a block of another kind, or a paragraph after a
    blank line). The resolver writes whole line starts (indentation, number and delimiter are
    held until what follows them), so each line start is seen in one piece.
    """
    pos = 0 if at_line_start else text.find("\n") + 1
    if not pos and not at_line_start:
        return text, state
    out: list[str] = []
    done = 0
    width = len(state.indent.expandtabs(4))
    blank = state.blank
    while pos < len(text):
        m = _LINE_START.match(text, pos)
        assert m is not None  # it matches the empty string
        body = m.end(1)
        nl = text.find("\n", pos)
        if not text[body : nl if nl >= 0 else len(text)].strip(" \t\r"):
            blank = True
        elif m[1] != state.indent:
            if len(m[1].expandtabs(4)) < width:
                return _joined(out, text, done), None
            blank = False  # an item's indented content: the list goes on
        elif m[2] is not None and m[3] == state.delimiter:
            number = int(m[2])
            if number > state.first:
                out += (text[done : m.start(2)], str(number - state.shift))
                done = m.end(2)
            blank = False
        elif blank or m[2] is not None or text[body] in _ENDS_LIST:
            return _joined(out, text, done), None
        if nl < 0:
            break
        pos = nl + 1
    if blank != state.blank:
        state = dataclasses.replace(state, blank=blank)
    return _joined(out, text, done), state


def _joined(out: list[str], text: str, done: int) -> str:
    return "".join(out) + text[done:] if out else text


def follows_list_item(pieces: list[str], held: str) -> bool:
    """Whether the line after a removed one keeps its indentation: after a list item's line
    it nests in the item rather than being code (``- a`` / ``    - [9]`` / ``    - b``).

    ``pieces`` and ``held`` are the resolver's output so far; only its end is read.
    """
    text = held
    for piece in reversed(pieces):
        if len(text) >= _LOOK_BACK:
            break
        text = piece + text
    return last_line_nests(text[-_LOOK_BACK:])
