"""Whether the built-in answerer has anything at all to answer from.

With no index ever built and no record table configured, every answer would be "not found",
which blames the documents. The turn fails with KnowledgeIndexError instead: the channels say
citecast is not set up (the web chat answers 503), and the operator reads why in the log.
"""

from __future__ import annotations

import asyncio

from bot.assistant.turn import Turn
from bot.errors import KnowledgeIndexError

__all__ = ["MISSING_INDEX", "require_knowledge"]

MISSING_INDEX = (
    "no knowledge index has been built yet: run `citecast ingest PATH` with the documents to "
    "answer from"
)


async def require_knowledge(turn: Turn) -> None:
    """Raise KnowledgeIndexError when there is nothing at all to answer from: no index has
    been built (and no record table is configured). Every answer would be "not found", which
    blames the documents; the channels say instead that citecast is not set up (the web chat
    answers 503), and the operator reads why in the log. An index that exists but cannot be
    opened raises its own reason here too (the rebuild hint)."""
    # opened in a worker thread, as searches are: the first open reads the file
    index = await asyncio.to_thread(lambda: turn.toolbox.index)
    if index is None and turn.toolbox.records is None:
        raise KnowledgeIndexError(MISSING_INDEX)
