"""Code fences a cut leaves open, and the list indent the rest of a cut list item loses.

A long block split into several messages (:mod:`renderers.limits`) may be cut inside a fenced
code block: the piece closes it and the next one reopens it with the same info string. Each
piece after the first starts a new message outside any list, so the rest of a list item's
lines, and of a code block inside one, lose the item's indent.
"""

from __future__ import annotations

from bot.markdown import FENCE_OPEN, closing_fence

# a code fence left open: its marker, info string and indent (the spaces before it)
Fence = tuple[str, str, int]


def closing(fence: Fence) -> str:
    """The line that closes ``fence`` at the end of a piece, at the fence's own indent."""
    return "\n" + " " * fence[2] + fence[0]


def dedent_item(rest: str, indent: int, at_line_start: bool, fence: str = "") -> str:
    """``rest``, which starts a new message outside the list it was in, without up to
    ``indent`` spaces of that list's indent: on each line of the code block left open (when
    ``fence`` is its marker) up to and including its closing fence, then on each line until one
    is indented less (a line cut mid-way keeps its spaces)."""
    if not indent:
        return rest
    lines = rest.split("\n")
    in_code = bool(fence)
    for i, line in enumerate(lines):
        if i == 0 and not at_line_start:
            continue
        spaces = len(line) - len(line.lstrip(" "))
        if not in_code and line.strip() and spaces < indent:
            break
        lines[i] = line[min(spaces, indent) :]
        stripped = lines[i].strip()
        if in_code and stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
            in_code = False
    return "\n".join(lines)


def open_fence(text: str) -> Fence | None:
    """The ``(marker, info, indent)`` of a code fence left open at the end of ``text``, if any
    (``indent``: the spaces before the opening fence).

    CommonMark's fence rules (``bot.markdown``), at any indent: a fence may sit in a list item.
    So a line like "```a``b" is a code span, not a fence (a backtick fence's info string holds
    no backtick), and is never closed and reopened around each cut.
    """
    fence: Fence | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        if fence is None:
            m = FENCE_OPEN.match(stripped)
            if m:
                info = stripped[m.end(1) :]
                fence = (m.group(1), info, len(line) - len(line.lstrip(" ")))
        elif closing_fence(stripped, fence[0]):
            fence = None
    return fence
