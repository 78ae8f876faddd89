"""Emphasis that wraps only markers: ``_[9]_``, ``**[1][2]**``, ``_**[1]**_`` go with them.

The marker grammar (:class:`bot.markers.MarkerScanner`) reads emphasis runs (``*``, ``**``,
``***``, ``_``, ``__``; several nested ones, ``_**``, are read run by run) right before a marker
as the marker's when the same runs close in mirror order (``**_``) right after it, or after a
group of markers with only separators between them (nothing, spaces, ``,``, ``;``, ``&``,
``and``, ``or``: ``SEPARATOR_RUN``, as the resolver reads them between the markers of one
group). A marker of the group may have emphasis of its own that wraps it alone (``__[1]**[2]**__``),
nested as deep as the group's bound allows. The runs then become part of the raw of the marker
they open before and of the one they close after, so the resolver writes ``[^1][^2]``, or
nothing when it removes them all, and never an emptied ``****`` or ``_[^1]_``, whose ``_[^1]_``
a second reading would take for a marker again. When only the inner runs of ``_**[1]**`` close,
those go with the marker and the outer ``_`` stays. Emphasis that also wraps words stays the
writer's. What follows a closing run reads as right after a marker (the scanner's doing): in
``_[2]_[n]`` the ``[n]`` is a placeholder, as in ``[2][n]``, not text after a word's ``_``.

A group is decided within :data:`MAX_GROUP` characters from its opener (what a stream holds
back meanwhile); a longer one is the writer's emphasis, in a stream as in a whole text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from bot.marker_lines import SEPARATOR_RUN
from bot.marker_parse import NEED, Hit, Parsed

__all__ = [
    "MARKER_START",
    "MAX_GROUP",
    "Wrapped",
    "emphasis_closed",
    "emphasis_group",
    "emphasis_opener",
]

MAX_GROUP: Final = 1024
"""The longest emphasised group of markers, from its opening runs to the end of its last marker."""

MARKER_START: Final = frozenset("[<【［\ue200\ue201\ue202(^")
"""The scanner's special characters that may begin a marker (not code, math, an escape or a
line break): what an emphasis run may wrap, and what may go on a group."""

_SEPARATOR_WORDS: Final = ("and", "or")
_EMPHASIS: Final = "*_"
_RUNS: Final = re.compile(r"\*+|_+")


@dataclass(frozen=True, slots=True)
class Wrapped:
    """One marker of an emphasised group: its raw, ``buf[start:end]``, holds the emphasis runs
    that open right before the marker (which begins at ``at``; ``hit`` is its parse) and those
    that close right after it."""

    start: int
    at: int
    hit: Hit
    end: int


def emphasis_opener(text: str, before: str) -> str:
    """The emphasis runs (``*``, ``**``, ``_``…, each at most 3; ``_**`` is two) that end
    ``text`` right before a marker and may open emphasis around it alone, within the last
    :data:`MAX_GROUP` characters: not after a letter or digit (``snake_[1]`` is a word, its
    ``_`` opens nothing); ``before`` is the character before ``text``. Empty when none."""
    n = len(text)
    floor = max(n - MAX_GROUP, 0)
    begin = n
    while begin > floor and text[begin - 1] in _EMPHASIS:
        char = text[begin - 1]
        j = begin - 1
        while j > floor and text[j - 1] == char:
            j -= 1
        if begin - j > 3 or (j > 0 and text[j - 1] == char):
            break  # too long a run (or one the bound cuts): what is before it is not taken
        begin = j
    if begin == n:
        return ""
    prior = text[begin - 1] if begin > 0 else before
    if prior.isalnum():
        char = text[begin]
        while begin < n and text[begin] == char:
            begin += 1  # the word's run goes; a run after it ("a_**[1]**") may still open
    return text[begin:]


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
    parse: Callable[[int, bool], Parsed],
) -> list[Wrapped] | None:
    """The markers that the runs ``emph`` wrap alone (``first`` is the one right after them:
    where it starts, and its hit; ``start``, where the spaces before the runs begin, is what
    :data:`MAX_GROUP` counts from), with the runs that go with each, in
    order; empty when the runs wrap more than markers and separators (or do not close); None
    when the text so far cannot tell. When only the inner runs of ``emph`` close around the
    markers, the group is the markers those wrap, and the outer runs stay text.

    ``parse(at, after_run)`` reads a candidate marker at ``at`` as the scanner does,
    ``after_run`` when it comes right after a closing run of the group (the caller restores any
    state it changed for the markers that are not in the answer).
    """
    runs = _RUNS.findall(emph)
    stack = list(runs)  # the runs open at ``end``, innermost last
    left = len(runs)  # how many of ``emph``'s runs have not closed yet
    at, hit = first
    items = [Wrapped(at, at, hit, hit.end)]
    end = hit.end
    commit: tuple[int, int, int] | None = None  # (markers, where the last ends, ``left``)
    n = len(buf)

    def committed() -> list[Wrapped]:
        if commit is None:
            return []
        count, last_end, opened = commit
        group = items[:count]
        group[-1] = replace(group[-1], end=last_end)
        group[0] = replace(group[0], start=at - sum(map(len, runs[opened:])))
        return group

    while True:
        after_run = False
        while stack:
            if end - start > MAX_GROUP:
                return committed()
            closed = emphasis_closed(buf, end, stack[-1], final)
            if closed is None:
                return None
            if not closed:
                break
            end += len(stack.pop())
            after_run = True
            if len(stack) < left:
                # one of the opening runs closed: all within it is a group
                left = len(stack)
                commit = (len(items), end, left)
        if not stack:
            return committed()
        run = SEPARATOR_RUN.match(buf, end).end()  # type: ignore[union-attr]  # matches ""
        if run == n or run - start > MAX_GROUP:
            # separators to the end of the text so far ("and" may be "andy"): more decides
            return None if not final and run - start <= MAX_GROUP else committed()
        rest = buf[run : run + 3]
        if not final and run + 3 > n and any(w.startswith(rest) for w in _SEPARATOR_WORDS):
            return None  # "an" or "o" at the end: the word may still become a separator
        mark = run
        if buf[run] in _EMPHASIS:
            # a marker's own emphasis within the group ("__[1]**[2]**__")
            limit = min(n, start + MAX_GROUP + 1)
            while mark < limit and buf[mark] in _EMPHASIS:
                mark += 1
            if mark == n and not final and mark - start <= MAX_GROUP:
                return None
            inner = buf[run:mark]
            if (
                len(stack) > left  # (one marker's own emphasis at a time: linear work)
                or mark - start > MAX_GROUP
                or emphasis_opener(inner, buf[run - 1]) != inner
            ):
                return committed()
            stack += _RUNS.findall(inner)
        if mark == n or buf[mark] not in MARKER_START or buf.startswith("[[[", mark):
            return committed()
        found = parse(mark, after_run and mark == end)
        if found is NEED:
            return None
        if not isinstance(found, Hit) or found.marker is None:
            return committed()
        items[-1] = replace(items[-1], end=end)
        items.append(Wrapped(run, mark, found, found.end))
        end = found.end
