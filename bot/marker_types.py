"""What the marker parsers answer with: a :class:`Marker`, a :class:`Hit`, :data:`NEED`.

The data types shared by every parser of one marker family (``bot.marker_parse`` and the
``bot.marker_*`` parsers it works with) and by the scanner (``bot.markers``) that drives them:
what a marker is, a decided candidate, and the sentinel for an undecided one. Split out of
``bot.marker_parse`` for size; that module re-exports them, so its importers are unchanged.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

__all__ = ["NEED", "STRAY", "Family", "Hit", "Marker", "Parsed"]

Family = Literal[
    "bracket",
    "footnote",
    "tag",
    "file_id",
    "record_key",
    "word",
    "linked",
    "private",
    "stray",
    "listed",
    "opener",
]


class Marker(NamedTuple):
    """One marker found in the text, with everything the resolver needs to map it to sources.

    ``numbers`` are registry numbers as written (ranges expanded, duplicates collapsed), ``ids``
    are source ids (``<CIT id />``, private-use markers, id-valued tags), ``key`` a record key.
    ``offset`` is where the marker starts in the raw text; ``lead`` the spaces before it.
    A ``"listed"`` marker is a removed model-written source list or footnote definition line:
    ``raw`` is the list's text (empty for a definition), ``ids`` its items as the
    ``is_source_list`` judge read them; the resolver cites what they name that nothing else did.
    An ``"opener"`` (``[cite_start]``, ``<co: 3>``) names nothing: it goes, ``lead`` kept.
    (A NamedTuple rather than a dataclass: the scanner builds one per marker on a hot path.)
    """

    family: Family
    raw: str
    offset: int
    numbers: tuple[int, ...] = ()
    ids: tuple[str, ...] = ()
    key: str | None = None
    columns: tuple[str, ...] = ()
    quote: str | None = None
    url: str | None = None
    placeholder: bool = False
    lead: str = ""


class Hit(NamedTuple):
    """A decided candidate: ``marker`` over ``buf[start:end]``, or verbatim text when None."""

    end: int
    marker: Marker | None


STRAY: Final = Marker("stray", "", 0)
"""A stray private-use character: removed without a trace (it names nothing)."""


class _Need:
    """Sentinel: the candidate is undecided until more text arrives."""


NEED: Final = _Need()
Parsed = Hit | _Need | None
