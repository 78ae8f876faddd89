"""Where the sources a removed model source list alone named are cited (bot.resolver).

A trailing "Sources:" list (or a footnote definition line, ``[^3]: FAQ``) that the model wrote
is removed: the renderers show the citations themselves. A source it names that no marker of
the answer cited must still reach the reader, so the resolver cites it at the end of the text
before the list, after its last sentence (``Install with pip.[^2]``), when that text ends in a
line of prose; after code, a table, a rule, HTML or an unclosed code span or math, which a
footnote would break or join, the citations go on a line of their own instead.
"""

from __future__ import annotations

from bot.marker_lines import indent_width

# a last character that would join the footnote into other syntax ("\\[^1]", "[[^1]", "`[^1]",
# "^[^1]")
_GLUING_LAST = frozenset("\\[`<$|^")


def ends_in_prose(line: str) -> bool:
    """Whether a footnote may be written at the end of ``line`` (the last line of the text
    before a removed source list) without changing what the line is: not code, a fence, a
    table row, HTML, a rule or a setext underline."""
    stripped = line.strip(" \t\r")
    if not stripped or indent_width(line) >= 4 or stripped[-1] in _GLUING_LAST:
        return False
    if stripped.startswith(("```", "~~~", "|", "<")):
        return False
    if stripped.count("`") % 2 or stripped.count("$") % 2:
        return False  # a code span or math still open may close after it, around the footnote
    return bool(stripped.strip("-=*_ \t"))
