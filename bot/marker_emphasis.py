"""Emphasis that wraps only markers: ``_[9]_``, ``**[1][2]**``, ``*[1], [2]*`` go with them.

The marker grammar (:class:`bot.markers.MarkerScanner`) reads an emphasis run (``*``, ``**``,
``***``, ``_``, ``__``) right before a marker as the marker's when the same run closes right
after it, or after a group of markers with only separators between them (nothing, spaces,
``,``, ``;``, ``&``, ``and``, ``or``: ``SEPARATOR_RUN``, as the resolver reads them between
the markers of one group). The run then becomes part of the first marker's ``raw`` (the opener)
and of the last one's (the closer), so the resolver writes ``[^1][^2]``, or nothing when it
removes them all, and never an emptied ``****`` or ``_[^1]_``, whose ``_[^1]_`` a second
reading would take for a marker again. Emphasis that also wraps words stays the writer's.
What follows the closing run reads as right after a marker (the scanner's doing): in
``_[2]_[n]`` the ``[n]`` is a placeholder, as in ``[2][n]``, not text after a word's ``_``.

A group is decided within :data:`MAX_GROUP` characters from its opener (what a stream holds
back meanwhile); a longer one is the writer's emphasis, in a stream as in a whole text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.marker_lines import SEPARATOR_RUN
from bot.marker_parse import NEED, Hit, Parsed

__all__ = ["MARKER_START", "MAX_GROUP", "emphasis_closed", "emphasis_group", "emphasis_opener"]

MAX_GROUP: Final = 1024
"""The longest emphasised group of markers, from its opening run to the end of its last marker."""

MARKER_START: Final = frozenset("[<【\ue200\ue201\ue202(^")
"""The scanner's special characters that may begin a marker (not code, math, an escape or a
line break): what an emphasis run may wrap, and what may go on a group."""

_SEPARATOR_WORDS: Final = ("and", "or")


def emphasis_opener(text: str, before: str) -> str:
    """The emphasis run (``*``, ``**``, ``_``…, at most 3) that ends ``text`` right before a
    marker and may open emphasis around it alone: not after a letter or digit (``snake_[1]``
    is a word); ``before`` is the character before ``text``. Empty when there is none."""
    char = text[-1]
    run = len(text) - len(text.rstrip(char))
    if run > 3:
        return ""
    prior = text[-run - 1] if len(text) > run else before
    return "" if prior.isalnum() else char * run


def emphasis_closed(buf: str, end: int, emph: str, final: bool) -> bool | None:
    """Whether the same run closes the emphasis right after a marker ending at ``end``, and
    nothing of it goes on (``_[9]__`` or ``_[9]_x`` is other markup); None to wait."""
    tail = buf[end : end + len(emph) + 1]
    if not final and len(tail) <= len(emph) and emph.startswith(tail):
        return None
    return tail.startswith(emph) and (
        len(tail) == len(emph) or (tail[-1] != emph[0] and not tail[-1].isalnum())
    )


def emphasis_group(
    buf: str,
    start: int,
    first: tuple[int, Hit],
    emph: str,
    final: bool,
    parse: Callable[[int], Parsed],
) -> list[tuple[int, Hit]] | None:
    """The markers (where each starts, and its hit; ``first`` is the one right after the run
    ``emph`` that begins at ``start``) that the run wraps alone, in order; empty when it wraps
    more than markers and separators (or does not close); None when the text so far cannot tell.

    ``parse(at)`` reads a candidate marker at ``at`` as the scanner does (the caller restores
    any state it changed when the answer is empty or None).
    """
    group = [first]
    end = first[1].end
    n = len(buf)
    while True:
        if end - start > MAX_GROUP:
            return []
        closed = emphasis_closed(buf, end, emph, final)
        if closed is None:
            return None
        if closed:
            return group
        run = SEPARATOR_RUN.match(buf, end).end()  # type: ignore[union-attr]  # matches ""
        if run == n or run - start > MAX_GROUP:
            # separators to the end of the text so far ("and" may be "andy"): more decides
            return None if not final and run - start <= MAX_GROUP else []
        rest = buf[run : run + 3]
        if not final and run + 3 > n and any(w.startswith(rest) for w in _SEPARATOR_WORDS):
            return None  # "an" or "o" at the end: the word may still become a separator
        if buf[run] not in MARKER_START or buf.startswith("[[[", run):
            return []
        found = parse(run)
        if found is NEED:
            return None
        if not isinstance(found, Hit) or found.marker is None:
            return []
        group.append((run, found))
        end = found.end
