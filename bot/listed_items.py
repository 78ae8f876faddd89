"""What one item of a model-written source list, or one footnote definition, names.

An item has the model's own label (``[^2]:``, ``[2]``, ``2.``) and a title or URL (``Pricing``,
``https://docs.example.com/pricing.pdf``). :func:`read_item` reads both: the label is the
number the model's markers use; the title or URL says which registry source the model meant.
Where they disagree, the title or URL decides (a model numbering its own footnotes 1, 2, …
does not use the registry's numbers). An ordered list's own number (``1.``) is never read as a
source number on its own: it only relabels the markers that use it when the title names a
source, and only in a list that numbers the model's own notes (:func:`numbers_own_notes`), not
in a recap of the sources the markers cite already. A bracket label (``[2] …``) naming no source
by title still names registry source 2, as the model told to cite with ``[n]`` writes it. The
words are read by :mod:`bot.listed_names`: the heading the registry printed beside a number
names that source before its title does, and a title naming several passages of one document
names that document (enough to make a list the model's source list, never to re-point).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.listed_names import names_in
from bot.registry import SourceRegistry

URL_IN_TEXT = re.compile(r"(?:https?|mailto):[^\s<>()\[\]]+", re.IGNORECASE)
# an optional bullet or ordered-list number, then the model's label: "[^2]:", "[2]", "2." / "2)"
_LABEL = re.compile(
    r"\s*(?:[-*+]\s+|\d{1,3}[.)]\s+(?=\[))?(?:\[\^?(\d{1,3})\^?\]:?|(\d{1,3})[.)](?!\S))"
)


@dataclass(frozen=True)
class ListedItem:
    """One item as read: ``label`` the model's number for it (None without one), ``ordered``
    when that label is an ordered list's own ``1.``, ``urls`` the registry sources its links
    name (first per link, None for a link to no source), ``named`` the source its URL, heading
    or title names (None when it names none, or several and none of them is the label's),
    ``document`` the sources of one document its title names when it names several (the item
    stands for that document: it names registry sources, but no one of them)."""

    label: int | None
    ordered: bool
    urls: tuple[int | None, ...]
    named: int | None
    document: tuple[int, ...] = ()

    def cites(self, registry: SourceRegistry) -> int | None:
        """The registry source the item stands for: the one its URL or title names, else a
        bracket label that is a registry number; never an ordered list's own number."""
        if self.named is not None:
            return self.named
        if self.label is not None and not self.ordered and registry.get(self.label) is not None:
            return self.label
        return None

    def names(self, registry: SourceRegistry) -> tuple[int, ...]:
        """The registry sources the item names: those its links name, else the one it stands
        for (:meth:`cites`), first named first."""
        linked = tuple(n for n in self.urls if n is not None)
        if linked:
            return linked
        cited = self.cites(registry)
        return () if cited is None else (cited,)

    def relabels(self) -> tuple[int, int] | None:
        """``(label, source)`` when the item's URL or title names another source than its
        label's number: the markers using that label cite ``source``."""
        if self.label is None or self.named is None or self.named == self.label:
            return None
        return self.label, self.named


def read_item(registry: SourceRegistry, item: str) -> ListedItem:
    """Read one source-list item or definition line (``"[^1]: Pricing"``, ``"1. Pricing"``)."""
    ref = _LABEL.match(item)
    label = None if ref is None else int(ref[1] or ref[2])
    ordered = ref is not None and ref[1] is None
    rest = item if ref is None else item[ref.end() :]
    urls = tuple(_url_source(registry, url) for url in URL_IN_TEXT.findall(rest))
    if urls:
        known = [n for n in urls if n is not None]
        named = label if label in known else (known[0] if known else None)
        return ListedItem(label, ordered, urls, named)
    words = names_in(registry, rest, label)
    return ListedItem(label, ordered, (), words.named, words.document)


def numbers_own_notes(
    registry: SourceRegistry, items: Iterable[ListedItem], cited: Sequence[int]
) -> bool:
    """Whether an ordered list's own numbers (``1.``, ``1)``) stand for the model's own notes,
    so the markers using them cite what its items name. ``cited`` is the registry numbers the
    answer cited so far, first cited first.

    A model citing registry numbers that recaps its sources in the order it cited them writes
    ``[2] … [1]`` and ``1. FAQ`` ``2. Install guide``: a list naming exactly the cited sources,
    in any order, is such a recap, and re-pointing by its numbers would swap correct
    citations. A model numbering its own notes first writes ``[1]``, then ``[2]``, …: markers
    that first cited other numbers, or in another order, cite by registry number too.
    """
    listed = {n for item in items for n in item.names(registry)}
    return listed != set(cited) and all(n == at for at, n in enumerate(cited, 1))


def _url_source(registry: SourceRegistry, url: str) -> int | None:
    numbers = registry.numbers_for_url(url.rstrip(".,;"))
    return numbers[0] if numbers else None
