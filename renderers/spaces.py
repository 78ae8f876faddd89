"""Text on one line, its no-break spaces kept.

Its own module (no imports) so that renderers.base, which renderers.escaping builds on, can use
it too.
"""

from __future__ import annotations

import re

# Spaces no line may break at: the no-break space holding a citation to its word
# (renderers.glue), and the figure and narrow no-break spaces of numbers and French punctuation.
_NO_BREAK = "\u00a0\u2007\u202f"
_SPACE_RUN = re.compile(r"\s+")


def one_line(text: str) -> str:
    """``text`` on one line: every run of whitespace (newlines, tabs, line separators) becomes
    one space, none at either end. A run holding a no-break space becomes that no-break space
    instead: it holds a citation marker to its word ("works\\u00a0[1]"), which an ordinary
    space would let wrap onto a line of its own in a heading or table cell."""
    if "\u00a0" not in text and "\u202f" not in text and "\u2007" not in text:
        return " ".join(text.split())  # the usual text: no no-break space to keep
    return _SPACE_RUN.sub(_collapsed, text).strip()


def _collapsed(m: re.Match[str]) -> str:
    run = m.group(0)
    return next((c for c in run if c in _NO_BREAK), " ")
