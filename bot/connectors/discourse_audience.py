"""Which groups read a Discourse category: its own ``audience_by_category`` entry, else the
nearest mapped category above it.

A subcategory of a category mapped to ``staff`` is read by staff too: Discourse refuses a
subcategory whose groups are not all allowed on its parent (the "permission conflict" rule),
so its readers are never more than its parent's, and citing what the parent's readers may see
there widens nothing. A subcategory with an entry of its own keeps it, also under a public
parent. The parent is read from the forum (``/c/{id}/show.json``'s ``parent_category_id``) each
time a reply is composed or checked, never remembered across answers, so a category moved to
another parent counts from the next answer on. A parent that cannot be read makes the category
public while composing (fewer sources, never more); before posting a private reply the failure
is raised instead, so the reply is retried rather than posted on a guess or dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.config import DiscourseSettings
from bot.connectors.discourse_client import DiscourseClient
from bot.errors import CitecastError

log = logging.getLogger(__name__)

PUBLIC = frozenset({"public"})
# Discourse nests categories at most three deep (the max_category_nesting site setting).
MAX_NESTING = 3


def mapped_audience(settings: DiscourseSettings, category_id: int | None) -> frozenset[str] | None:
    """The groups ``audience_by_category`` names for ``category_id`` itself, or None."""
    if category_id is None:
        return None
    groups = settings.audience_by_category.get(str(category_id))
    return frozenset(groups) if groups else None


class CategoryReaders:
    """Resolves categories' audiences for one answer or one delivery (parents read once each)."""

    def __init__(
        self,
        settings: DiscourseSettings,
        client: Callable[[], DiscourseClient],
        warned: set[int] | None = None,
    ) -> None:
        """``warned``: the categories whose unreadable parent was already logged (kept by the
        connector, so a key without the scope is reported once per category, not per answer)."""
        self.settings = settings
        self._client = client
        self._parents: dict[int, int | None] = {}
        self._warned = warned if warned is not None else set()

    async def audience(self, category_id: int | None, *, strict: bool = False) -> frozenset[str]:
        """The groups whose readers see ``category_id``: its own mapping, else the nearest
        mapped parent's, else public.

        ``strict``: a parent that cannot be read raises (the forum's error) instead of
        counting the category as public.
        """
        if category_id is None:
            return PUBLIC
        own = mapped_audience(self.settings, category_id)
        if own is not None:
            return own
        if not self.settings.audience_by_category:
            return PUBLIC  # nothing mapped: no parent can make a difference
        seen = {category_id}
        current = category_id
        for _ in range(MAX_NESTING):
            try:
                parent = await self._parent(current)
            except CitecastError as exc:
                if strict:
                    raise
                if current in self._warned:
                    return PUBLIC
                self._warned.add(current)
                log.warning(
                    "discourse: cannot read category %s to find its parent (%s); answering"
                    " there with public sources only (give the API key the categories: show"
                    " scope, or map the category in discourse.audience_by_category; logged"
                    " once per category)",
                    current,
                    exc,
                )
                return PUBLIC
            if parent is None or parent in seen:
                return PUBLIC
            inherited = mapped_audience(self.settings, parent)
            if inherited is not None:
                return inherited
            seen.add(parent)
            current = parent
        return PUBLIC

    async def _parent(self, category_id: int) -> int | None:
        if category_id not in self._parents:
            self._parents[category_id] = await self._client().parent_category(category_id)
        return self._parents[category_id]
