"""The terms of the windows a passage is scored by (:func:`bot.support.best_window`).

A window is one sentence, two neighbouring sentences joined by one space, or the whole passage
joined so. No term spans the space that joins two sentences (checked on the sample knowledge
base and on 42,000 generated sentence pairs), so a pair's terms and the passage's are unions of
its sentences' terms: each sentence is read once, not three or four times.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from bot.text_terms import term_set

__all__ = ["window_terms"]


def window_terms(parts: Sequence[str]) -> dict[str, frozenset[str]]:
    """The terms of each window of ``parts`` (a passage's sentences), keyed by its text."""
    single = [term_set(part) for part in parts]
    known = dict(zip(parts, single, strict=True))
    for (a, b), (ta, tb) in zip(itertools.pairwise(parts), itertools.pairwise(single), strict=True):
        known[f"{a} {b}"] = ta | tb
    known[" ".join(parts)] = frozenset().union(*single)
    return known
