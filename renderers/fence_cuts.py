"""Code fences a cut leaves open, and the list indent the rest of a cut list item loses.

A long block split into several messages (:mod:`renderers.limits`) may be cut inside a fenced
code block: the piece closes it and the next one reopens it with the same info string. Each
piece after the first starts a new message outside any list, so the rest of a list item's
lines, and of a code block inside one, lose the item's indent. A code block inside a block
quote (in a list item or not) is closed and reopened with its quote prefix ("> ```"): a bare
fence would end the quote instead, and the code after it would show as live markdown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.markdown import FENCE_OPEN, closing_fence

# where a line's own text starts: after a list item's indent (spaces) and any quote markers
_CONTAINERS = re.compile(r"( *)((?:>[ \t]*)*)")


@dataclass(frozen=True)
class Fence:
    """A code fence left open: its ``marker`` and ``info`` string, the spaces before it
    (``indent``: a list item's, lost with the list when the rest starts a new message) and
    the block-quote prefix after them (``quote``: "> ", ">   ", "" outside a quote), which
    every line of the code carries."""

    marker: str
    info: str
    indent: int = 0
    quote: str = ""


def closing(fence: Fence) -> str:
    """The line that closes ``fence`` at the end of a piece, at the fence's own indent and in
    its quote."""
    return "\n" + " " * fence.indent + fence.quote + fence.marker


def reopening(fence: Fence) -> str:
    """The line that reopens ``fence`` at the start of the next piece: in its quote, without
    the list indent (the piece starts outside any list)."""
    return fence.quote + fence.marker + fence.info + "\n"


def code_rest(fence: Fence, rest: str, at_line_start: bool) -> str:
    """``rest``, the code after a cut inside ``fence``, as it goes on after the reopened fence:
    without the list indent (:func:`dedent_item`), and a line cut in two still in the quote
    (its second half would otherwise end the quote, and the code with it)."""
    rest = dedent_item(rest, fence.indent, at_line_start, fence.marker, fence.quote)
    return rest if at_line_start or not fence.quote else fence.quote + rest


def dedent_item(
    rest: str, indent: int, at_line_start: bool, fence: str = "", quote: str = ""
) -> str:
    """``rest``, which starts a new message outside the list it was in, without up to
    ``indent`` spaces of that list's indent: on each line of the code block left open (when
    ``fence`` is its marker, ``quote`` its quote prefix) up to and including its closing fence,
    then on each line until one is indented less (a line cut mid-way keeps its spaces)."""
    if not indent:
        return rest
    lines = rest.split("\n")
    in_code = bool(fence)
    depth = quote.count(">")
    for i, line in enumerate(lines):
        if i == 0 and not at_line_start:
            continue
        spaces = len(line) - len(line.lstrip(" "))
        if not in_code and line.strip() and spaces < indent:
            break
        lines[i] = line[min(spaces, indent) :]
        if in_code and _closes(lines[i], fence, depth):
            in_code = False
    return "\n".join(lines)


def _closes(line: str, marker: str, depth: int, whole: bool = True) -> bool:
    """True when ``line`` closes a fence of ``marker`` inside ``depth`` quote levels, or, when
    it is ``whole`` (not the start of a line a cut falls in), ends the quote it was in (a code
    block in a quote ends with it)."""
    if not depth and not line.startswith((" ", ">")):  # most lines of code: the fast way
        return closing_fence(line.rstrip(), marker) is not None
    m = _CONTAINERS.match(line)
    assert m is not None  # the pattern matches the empty string
    levels = m[2].count(">")
    if levels != depth:
        return whole and levels < depth
    return closing_fence(line[m.end() :].strip(), marker) is not None


def open_fence(text: str) -> Fence | None:
    """The code fence left open at the end of ``text``, if any.

    CommonMark's fence rules (``bot.markdown``), at any indent (a fence may sit in a list item)
    and in a block quote (a list item's or not): a fence there is closed by a fence line in the
    same quote, or by the end of the quote. A line like "```a``b" is a code span, not a fence (a
    backtick fence's info string holds no backtick), and is never closed and reopened around
    each cut.
    """
    fence: Fence | None = None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        fence = after_line(fence, line, whole=i < len(lines) - 1)
    return fence


def after_line(fence: Fence | None, line: str, whole: bool = True) -> Fence | None:
    """The code fence open after ``line``, when ``fence`` was open before it (None: none was).
    ``whole``: the line is complete (not the start of one a cut falls in, which can close a
    fence but not yet end a quote)."""
    if fence is not None:
        return None if _closes(line, fence.marker, fence.quote.count(">"), whole) else fence
    m = _CONTAINERS.match(line)
    assert m is not None  # the pattern matches the empty string
    stripped = line[m.end() :].strip()
    opened = FENCE_OPEN.match(stripped)
    if opened is None:
        return None
    return Fence(opened.group(1), stripped[opened.end(1) :], len(m[1]), m[2])
