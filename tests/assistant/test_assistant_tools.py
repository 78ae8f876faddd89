"""Tools register as they format; concurrent fetches number stably; the cache keeps sources."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.assistant.cache import ToolCache
from bot.assistant.tools import NO_PASSAGES, Toolbox, ToolCall, ToolResult
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.records import RecordTables
from bot.models import Source
from bot.registry import SourceRegistry

PUBLIC = frozenset({"public"})
CITE = re.compile(r"\[cite: (\d+)\] ([^\n]+)")


def toolbox(settings: Settings, index: KnowledgeIndex, cache: ToolCache | None = None) -> Toolbox:
    return Toolbox(
        index,
        RecordTables(settings.index.records),
        cache if cache is not None else ToolCache(64),
        top_k=3,
    )


def call(n: int, name: str, arguments: str) -> ToolCall:
    return ToolCall(f"call_{n}", name, arguments)


async def test_search_docs_puts_each_number_beside_its_passage(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    registry = SourceRegistry(PUBLIC)
    [text] = await toolbox(kb_settings, kb_index).run_calls(
        [call(1, "search_docs", '{"query": "retry policy"}')], registry
    )
    cited = CITE.findall(text)
    assert [int(n) for n, _ in cited] == list(range(1, len(cited) + 1))
    for number, heading in cited:
        source = registry.get(int(number))
        assert source is not None and heading.startswith(source.display_title)
        assert (source.text or "")[:40] in text


async def test_lookup_records_returns_cite_and_configured_columns_only(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    import json

    registry = SourceRegistry(PUBLIC)
    [text] = await toolbox(kb_settings, kb_index).run_calls(
        [call(1, "lookup_records", '{"table": "products", "query": "business"}')], registry
    )
    [first, *_] = json.loads(text)
    assert first["cite"] == 1 and first["label"] == "citecast Business (CC-BIZ)"
    assert set(first["columns"]) == {"tier", "price_usd", "support"}
    assert "internal_cost" not in text and "seats" not in text


async def test_lookup_records_without_search_words_lists_the_first_rows(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    import json

    registry = SourceRegistry(PUBLIC)
    empty, missing = await toolbox(kb_settings, kb_index).run_calls(
        [
            call(1, "lookup_records", '{"table": "products", "query": ""}'),
            call(2, "lookup_records", '{"table": "products"}'),
        ],
        registry,
    )
    first_rows = ["citecast Community (CC-FREE)", "citecast Team (CC-TEAM)",
                  "citecast Business (CC-BIZ)"]  # fmt: skip
    assert [row["label"] for row in json.loads(empty)] == first_rows  # top_k=3, file order
    # the same sources again: registered once, cited with the same numbers
    assert [row["cite"] for row in json.loads(missing)] == [1, 2, 3]
    [bad] = await toolbox(kb_settings, kb_index).run_calls(
        [call(3, "lookup_records", '{"table": "products", "query": 7}')], registry
    )
    assert bad == "error: lookup_records needs a string argument 'query'"


async def test_bad_calls_become_errors_the_model_can_read(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    registry = SourceRegistry(PUBLIC)
    results = await toolbox(kb_settings, kb_index).run_calls(
        [
            call(1, "search_docs", "{not json"),
            call(2, "search_docs", '{"query": ""}'),
            call(3, "delete_everything", '{"query": "x"}'),
            call(4, "lookup_records", '{"table": "orders", "query": "x"}'),
            call(5, "search_docs", '{"query": "zxqv plorb"}'),
        ],
        registry,
    )
    assert results[0] == "error: the arguments of search_docs are not valid JSON"
    assert results[1] == "error: search_docs needs a non-empty string argument 'query'"
    assert results[2] == "error: unknown tool 'delete_everything'"
    assert results[3].startswith("error: no record table named 'orders'")
    assert results[4] == NO_PASSAGES
    assert len(registry) == 0


class GatedToolbox(Toolbox):
    """The first fetch cannot finish until the second has started: proves they overlap."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.second_started = threading.Event()
        self.overlapped = False

    def fetch(
        self, name: str, arguments: Mapping[str, Any], audience: frozenset[str]
    ) -> ToolResult:
        if arguments.get("query") == "retry policy":
            self.overlapped = self.second_started.wait(timeout=10)
        else:
            self.second_started.set()
        return super().fetch(name, arguments, audience)


async def test_calls_in_one_step_run_concurrently_and_number_in_call_order(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    tools = GatedToolbox(kb_index, None, ToolCache(0), top_k=2)
    registry = SourceRegistry(PUBLIC)
    slow, fast = await tools.run_calls(
        [
            call(1, "search_docs", '{"query": "retry policy"}'),
            call(2, "search_docs", '{"query": "signed file downloads"}'),
        ],
        registry,
    )
    assert tools.overlapped
    assert [int(n) for n, _ in CITE.findall(slow)] == [1, 2]
    assert [int(n) for n, _ in CITE.findall(fast)] == [3, 4]
    first = registry.get(1)
    assert first is not None and "Retry policy" in (first.section or "")


async def test_second_turn_from_cache_cites_with_its_own_numbers(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    cache = ToolCache(16)
    tools = toolbox(kb_settings, kb_index, cache)
    search = [call(1, "search_docs", '{"query": "retry policy"}')]

    first_turn = SourceRegistry(PUBLIC)
    [first_text] = await tools.run_calls(search, first_turn)
    assert (cache.hits, cache.misses) == (0, 1)

    second_turn = SourceRegistry(PUBLIC)
    second_turn.register(Source(id="earlier-result", title="Something found first"))
    [second_text] = await tools.run_calls(search, second_turn)
    assert (cache.hits, cache.misses) == (1, 1)

    first_ids = [first_turn.get(int(n)) for n, _ in CITE.findall(first_text)]
    second_numbers = [int(n) for n, _ in CITE.findall(second_text)]
    assert second_numbers == [n + 1 for n, _ in enumerate(first_ids, start=1)]
    assert [second_turn.get(n) for n in second_numbers] == first_ids
    assert second_text != first_text  # same passages, this turn's numbers


async def test_cache_is_per_audience_and_forgets_on_reingest(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    cache = ToolCache(16)
    tools = toolbox(kb_settings, kb_index, cache)
    search = [call(1, "search_docs", '{"query": "walrus salary band"}')]
    [public] = await tools.run_calls(search, SourceRegistry(PUBLIC))
    [staff] = await tools.run_calls(search, SourceRegistry(frozenset({"staff"})))
    assert public == NO_PASSAGES and "confidential" in staff
    assert cache.hits == 0


def test_lru_evicts_the_least_recently_used() -> None:
    cache = ToolCache(2)
    cache.put(("a",), ())
    cache.put(("b",), ())
    assert cache.get(("a",)) == ()
    cache.put(("c",), ())
    assert cache.get(("b",)) is None and cache.get(("a",)) == () and len(cache) == 2
    disabled = ToolCache(0)
    disabled.put(("a",), ())
    assert disabled.get(("a",)) is None


async def test_an_unreadable_index_is_logged_and_the_model_gets_no_server_path(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "a.md").write_text("# Retries\n\nThe retry policy backs off.\n", encoding="utf-8")
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "index.db")}})
    assert ingest([kb], settings.index).indexed == 1
    with open(settings.index.path, "r+b") as index_file:  # broken after the server started
        index_file.write(b"not a database" * 512)
    tools = Toolbox(settings.index.path)
    with caplog.at_level(logging.WARNING, logger="bot.assistant.tools"):
        [result] = await tools.run_calls(
            [call(1, "search_docs", '{"query": "retry policy"}')], SourceRegistry(PUBLIC)
        )
    assert result == "error: the knowledge base cannot be searched right now"
    assert str(tmp_path) in caplog.text and "rebuild" in caplog.text
