"""What a message shows as code: its fenced code blocks, in a block quote or a list or not.

Written apart from ``renderers.fence_cuts`` (which the cuts use), so the tests of cut code
blocks do not check the product against itself. A quoted code block ends with its quote.
"""

from __future__ import annotations

import re

# the list indent, quote markers and a list item's marker ("- ```" opens a code block in the
# item) before a line's own text
_PREFIX = re.compile(r"[ \t]*((?:>[ \t]*)*)(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?")
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)$")


def _walk(part: str) -> tuple[list[tuple[str, bool]], bool]:
    """Each line of ``part`` with whether it shows as code (its fence lines included), and
    whether a code block is left open at its end."""
    lines: list[tuple[str, bool]] = []
    fence = ""
    depth = 0  # the quote levels of the open code block
    for line in part.split("\n"):
        prefix = _PREFIX.match(line)
        assert prefix is not None
        levels = prefix[1].count(">")
        m = _FENCE.match(line[prefix.end() :])
        if fence and levels < depth:
            fence = ""  # the quote, and the code block in it, ended
        if not fence:
            if m and not (m[1][0] == "`" and "`" in m[2]):
                fence, depth = m[1], levels
            lines.append((line, bool(fence)))
            continue
        lines.append((line, True))
        closes = m and m[1][0] == fence[0] and len(m[1]) >= len(fence) and not m[2].strip()
        if closes and levels == depth:
            fence = ""
    return lines, bool(fence)


def code_lines(part: str) -> list[tuple[str, bool]]:
    """Each line of ``part`` with whether it shows as code (its fence lines included)."""
    return _walk(part)[0]


def fences_balanced(part: str) -> bool:
    """True when every code block ``part`` opens is closed in it (or by the end of its quote)."""
    return not _walk(part)[1]
