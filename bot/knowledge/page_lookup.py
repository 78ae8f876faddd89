"""The page maps of a knowledge index as a ``PageLookup``, for narrowing citations to pages.

The Assistant narrows every answer's PDF citations to the pages their quotes are on
(:func:`bot.knowledge.page_spans.narrow_answer`); ``citecast eval`` narrows a recorded answer
with the same lookup, so the pages it reports are the ones a user is shown. A map only
sharpens a citation: an index that is missing or cannot be read gives none, never an error.
"""

from __future__ import annotations

from pathlib import Path

from bot.errors import KnowledgeIndexError
from bot.knowledge.index import KnowledgeIndex
from bot.knowledge.page_spans import PageLookup, PageStarts
from bot.models import Source


def index_page_lookup(path: str | Path) -> PageLookup:
    """The page map of a chunk from the index at ``path``, opened when first asked (an index
    built after this is made is found); None while there is no index or it cannot be read."""
    opened: list[KnowledgeIndex] = []

    def lookup(source: Source) -> PageStarts | None:
        if not opened:
            try:
                opened.append(KnowledgeIndex(path))
            except KnowledgeIndexError:
                return None  # no index (yet), or one of another schema: try again next time
        return opened[0].page_starts(source)

    return lookup
