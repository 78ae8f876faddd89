"""How the sections of two passages relate, as the extractive answerer weighs their sentences.

A section is a heading path ("Guide > Install > Linux"). The section around the best
sentence's section applies to it too (:func:`encloses`); a sibling section of it (:func:`siblings`:
"macOS" beside "Linux") is about something else unless its heading names the same question words.
"""

from __future__ import annotations

from bot.models import Source


def own_heading(section: str | None) -> str:
    """The innermost heading of a ``"Guide > Install > Linux"`` section path (``"Linux"``)."""
    return (section or "").rsplit(" > ", 1)[-1]


def encloses(outer: Source, inner: Source) -> bool:
    """Whether ``outer`` is a passage of a section that ``inner``'s section lies under."""
    a, b = outer.section or "", inner.section or ""
    return bool(a) and outer.path == inner.path and b.startswith(a + " > ")


def siblings(a: Source, b: Source) -> bool:
    """Whether two passages of one file are in different sections of one parent section."""
    x, y = a.section or "", b.section or ""
    return a.path == b.path and x != y and bool(_parent(x)) and _parent(x) == _parent(y)


def _parent(section: str) -> str:
    return section.rsplit(" > ", 1)[0] if " > " in section else ""
