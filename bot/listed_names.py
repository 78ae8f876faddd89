"""Which registry source the words of a source-list item name: by the heading the registry
printed beside ``[cite: N]``, else by title, file name or label (:mod:`bot.listed_items`).

The most specific name wins. A model that copies the heading it was shown
(``citecast administration guide — Administration guide > Outbox``) names that one passage,
although the guide's title alone names every passage of the guide the tools returned. A title
naming several passages of one document (one file, one page) names that document: the item
names registry sources, so a list of such items is the model's source list, but which passage
it meant is not known, so it re-points no marker and cites no source of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.models import Source
from bot.registry import SourceRegistry, passage_heading
from bot.registry_urls import document_url

_MIN_NAME = 3  # shorter titles ("A", "Q&") name too much by accident


@dataclass(frozen=True)
class ItemNames:
    """What an item's words name: ``named`` the one source (None for none, or several where
    none is the label's), ``document`` the sources of one document its words name when they
    name several and none is the label's (empty otherwise)."""

    named: int | None
    document: tuple[int, ...]


def names_in(registry: SourceRegistry, words: str, label: int | None) -> ItemNames:
    """The sources ``words`` (an item after its label) name: by a printed heading when one is
    in the words, else by title, file name or label; of several, the label's source when the
    words name it, else the one with the longest name."""
    lowered = words.lower()
    numbered = registry.numbered()
    found = {n: len(h) for n, h in _headings(numbered).items() if _has_name(lowered, h)}
    if not found:
        for number, source in numbered.items():
            length = _named(source, lowered)
            if length:
                found[number] = length
    if not found:
        return ItemNames(None, ())
    if label in found:
        return ItemNames(label, ())
    longest = max(found.values())
    best = tuple(n for n, length in found.items() if length == longest)
    if len(best) == 1:
        return ItemNames(best[0], ())
    return ItemNames(None, best if _one_document(numbered[n] for n in best) else ())


def _headings(numbered: dict[int, Source]) -> dict[int, str]:
    """Each passage's printed heading, lower-cased, where it says more than the title (a
    section or pages): the same text as the title is matched as a title."""
    out: dict[int, str] = {}
    for number, source in numbered.items():
        if source.kind == "record" or (source.section is None and source.page is None):
            continue
        out[number] = passage_heading(source).lower()
    return out


def _has_name(lowered: str, name: str) -> bool:
    """Whether ``name`` is in ``lowered`` as a whole (``… — p. 3`` is not in ``… — p. 30``)."""
    start = lowered.find(name)
    while start >= 0:
        end = start + len(name)
        if (start == 0 or not lowered[start - 1].isalnum()) and (
            end == len(lowered) or not lowered[end].isalnum()
        ):
            return True
        start = lowered.find(name, start + 1)
    return False


def _named(source: Source, lowered: str) -> int:
    """The length of the longest of the source's names (title, filename, label) in the item,
    0 for none."""
    best = 0
    for name in (source.title, source.filename, source.label):
        if name and len(name) > best and len(name) >= _MIN_NAME and name.lower() in lowered:
            best = len(name)
    return best


def _one_document(sources: Iterable[Source]) -> bool:
    """Whether the sources are passages of one document: one file, else one page (its
    fragment included: two anchors of a page are two documents), else one id before ``#``."""
    keys = {_document(source) for source in sources}
    return len(keys) == 1 and None not in keys


def _document(source: Source) -> tuple[str, ...] | None:
    if source.kind == "record":
        return None
    if source.path:
        return ("path", source.path)
    if source.url:
        try:
            return ("url", *document_url(source.url))
        except ValueError:
            return None
    if source.filename:
        return ("file", source.filename)
    stem, hashed, _ = source.id.rpartition("#")
    return ("id", stem) if hashed and stem else None
