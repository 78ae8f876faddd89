"""The tool-result cache: sources by tool and arguments, never citation numbers.

Numbers belong to one turn, so a cache hit is registered again in the current turn's registry
and formatted with the current numbers (DESIGN §4). The key includes the viewer's audience and
the version of what was searched (the index's id and generation), so a viewer never gets another
audience's hits, and a re-ingest or a rebuilt index is seen at once.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from typing import Any

from bot.models import Source

CacheKey = tuple[Hashable, ...]


def cache_key(
    tool: str, arguments: Mapping[str, Any], audience: frozenset[str], version: Hashable
) -> CacheKey:
    """A hashable key for one tool call as a given viewer sees it, against one ``version`` of
    the data searched."""
    args = json.dumps(arguments, sort_keys=True, ensure_ascii=False)
    return (tool, args, tuple(sorted(audience)), version)


class ToolCache:
    """A thread-safe LRU of tool results (tuples of Sources); ``size=0`` disables it."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[CacheKey, tuple[Source, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: CacheKey) -> tuple[Source, ...] | None:
        """The cached sources for ``key``, or None (counted as a miss)."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: CacheKey, sources: tuple[Source, ...]) -> None:
        """Remember ``sources`` for ``key``, evicting the least recently used entry."""
        if self.size <= 0:
            return
        with self._lock:
            self._items[key] = sources
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
