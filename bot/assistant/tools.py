"""The tools the assistant (or the model) calls: ``search_docs`` and ``lookup_records``.

A tool call has two halves. ``fetch`` finds Sources (I/O, runs in a worker thread, cached by
tool and arguments); ``format`` registers them in the turn's :class:`SourceRegistry` and writes
the result text with each number beside its evidence. When the model asks for several tools in
one step, every fetch runs concurrently (up to :data:`MAX_CALLS_PER_STEP` of them) and the
results are then registered in the order the model asked for them, so numbering is stable
whatever finishes first.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.assistant.cache import ToolCache, cache_key
from bot.errors import CitecastError, ConfigError, KnowledgeIndexError
from bot.knowledge.index import KnowledgeIndex
from bot.knowledge.records import RecordTables, TableSummary
from bot.knowledge.terms import stem
from bot.models import Source
from bot.registry import SourceRegistry

log = logging.getLogger(__name__)

NO_PASSAGES = "No passages in the knowledge base match this search."
NO_RECORDS = "No records match this search."

MAX_CALLS_PER_STEP = 10
"""Calls run from one model step. A model that asks for more (a small local model repeating
one search dozens of times) has the rest answered with an error: one step must not run
unbounded searches, nor flood the next request with their results until the endpoint
refuses it as too long for the model's context."""


@dataclass(frozen=True)
class ToolCall:
    """One tool call requested by the model (``arguments`` as the raw JSON text it sent)."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ToolResult:
    """What a fetch found (or why it failed)."""

    sources: tuple[Source, ...] = ()
    error: str | None = None
    columns: tuple[str, ...] = field(default=())


class Toolbox:
    """Tools over one knowledge index and the configured record tables.

    The index is opened lazily, so an assistant built before the first ``citecast ingest``
    starts answering as soon as the index exists.
    """

    def __init__(
        self,
        index: KnowledgeIndex | str | Path | None,
        records: RecordTables | None = None,
        cache: ToolCache | None = None,
        top_k: int = 5,
    ) -> None:
        self._index: KnowledgeIndex | None = index if isinstance(index, KnowledgeIndex) else None
        self._index_path = Path(index) if isinstance(index, str | Path) else None
        self.records = records
        self.cache = cache if cache is not None else ToolCache(0)
        self.top_k = top_k

    @property
    def index(self) -> KnowledgeIndex | None:
        """The knowledge index, or None while none has been built."""
        if self._index is None and self._index_path is not None and self._index_path.exists():
            self._index = KnowledgeIndex(self._index_path)
        return self._index

    def tables(self, audience: frozenset[str]) -> dict[str, TableSummary]:
        """Record table name -> shown columns and description, for the tables the viewer in
        ``audience`` may see (a staff-only table is never described to a public viewer's model).
        """
        return self.records.describe(audience) if self.records else {}

    # -- fetch: find sources (thread-safe, cached) ---------------------------------------------

    def fetch(
        self, name: str, arguments: Mapping[str, Any], audience: frozenset[str]
    ) -> ToolResult:
        """Run tool ``name`` and return the Sources it found for a viewer in ``audience``."""
        query = arguments.get("query")
        if name == "search_docs":
            if not isinstance(query, str) or not query.strip():
                return ToolResult(error=f"{name} needs a non-empty string argument 'query'")
            index = self.index
            if index is None:
                return ToolResult(error="the knowledge base is empty (no index has been built)")
            # The index's id as well as its generation: a rebuilt index counts generations
            # from 0 again, and must not be answered from what the old one returned.
            key = cache_key(name, {"query": query}, audience, index.version())
            cached = self.cache.get(key)
            if cached is None:
                cached = tuple(index.search(query, audience, self.top_k))
                self.cache.put(key, cached)
            return ToolResult(cached)
        if name == "lookup_records":
            query = "" if query is None else query  # no search words: the table's first rows
            if not isinstance(query, str):
                return ToolResult(error=f"{name} needs a string argument 'query'")
            table = arguments.get("table")
            if self.records is None:
                return ToolResult(error="no record tables are configured")
            if not isinstance(table, str):
                known = ", ".join(self.records.visible(audience)) or "none"
                return ToolResult(error=f"{name} needs a string argument 'table' (tables: {known})")
            key = cache_key(name, {"table": table, "query": query}, audience, 0)
            cached = self.cache.get(key)
            if cached is None:
                cached = tuple(self.records.lookup(table, query, audience, self.top_k))
                self.cache.put(key, cached)
            summary = self.tables(audience).get(table)
            return ToolResult(cached, columns=summary.columns if summary else ())
        return ToolResult(error=f"unknown tool {name!r}")

    async def fetch_async(
        self, name: str, arguments: Mapping[str, Any], audience: frozenset[str]
    ) -> ToolResult:
        """``fetch`` in a worker thread; citecast errors become a result the model can read
        (an index or table that cannot be read: a reason without server paths)."""
        try:
            return await asyncio.to_thread(self.fetch, name, arguments, audience)
        except KnowledgeIndexError as exc:
            if name != "search_docs":  # a record table's answer to the call ("no table named")
                return ToolResult(error=str(exc))
            # the index's own reason names its path and tells an operator to rebuild: for the
            # log, not for the model (which would pass it on to whoever asked)
            log.warning("tool %s failed: %s", name, exc)
            return ToolResult(error="the knowledge base cannot be searched right now")
        except ConfigError as exc:
            # a record table that stopped being readable after the start: the reason names
            # server paths, which are for the log, not for the model (nor the viewer it answers)
            log.warning("tool %s failed: %s", name, exc)
            table = arguments.get("table")
            what = f"the record table {table!r}" if isinstance(table, str) else "the table"
            return ToolResult(error=f"{what} cannot be read right now")
        except CitecastError as exc:
            log.warning("tool %s failed: %s", name, exc)
            return ToolResult(error=str(exc))

    async def holds(self, word: str, audience: frozenset[str]) -> bool:
        """Whether anything a viewer in ``audience`` may read holds ``word``: a passage that a
        search for it finds, or a visible record table that names it (its name, shown columns
        or description) or holds it in a record. The built-in answerer asks this of the
        question words its passages lack, to tell a question it cannot answer."""
        if (await self.fetch_async("search_docs", {"query": word}, audience)).sources:
            return True
        tables = self.records
        for table in tables.visible(audience) if tables is not None else ():
            if tables is not None and stem(word) in tables.topic_terms(table):
                return True
            query = {"table": table, "query": word}
            if (await self.fetch_async("lookup_records", query, audience)).sources:
                return True
        return False

    # -- format: register and write the result text ---------------------------------------------

    @staticmethod
    def format(name: str, result: ToolResult, registry: SourceRegistry) -> str:
        """Register ``result``'s sources in this turn and write the text the model reads."""
        if result.error:
            return f"error: {result.error}"
        if name == "lookup_records":
            rows = registry.format_records(result.sources)
            return json.dumps(rows, ensure_ascii=False) if rows else NO_RECORDS
        text = registry.format_passages(result.sources)
        return text or NO_PASSAGES

    async def run_calls(self, calls: Sequence[ToolCall], registry: SourceRegistry) -> list[str]:
        """Fetch every call concurrently, then register and format them in the calls' order.

        Only the first :data:`MAX_CALLS_PER_STEP` calls run; each later one is answered with
        an error saying so (every call must be answered for the conversation to go on).
        """
        audience = frozenset(registry.audience)
        parsed = [_arguments(call) for call in calls]
        over = (
            f"too many tool calls in one step (at most {MAX_CALLS_PER_STEP}); this one was not run"
        )
        results = await asyncio.gather(
            *(
                _failed(over)
                if position >= MAX_CALLS_PER_STEP
                else self.fetch_async(call.name, args, audience)
                if isinstance(args, dict)
                else _failed(args)
                for position, (call, args) in enumerate(zip(calls, parsed, strict=True))
            )
        )
        return [self.format(c.name, r, registry) for c, r in zip(calls, results, strict=True)]


def _arguments(call: ToolCall) -> dict[str, Any] | str:
    try:
        value = json.loads(call.arguments or "{}")
    except (json.JSONDecodeError, TypeError):  # TypeError: not text at all
        return f"the arguments of {call.name} are not valid JSON"
    return value if isinstance(value, dict) else f"the arguments of {call.name} must be an object"


async def _failed(reason: str) -> ToolResult:
    return ToolResult(error=reason)
