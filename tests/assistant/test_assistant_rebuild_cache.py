"""A running server must not answer from results it cached before ``ingest --rebuild``.

A rebuilt index counts generations from 0 again, so the generation alone repeats; the cache key
also holds the index's random id, drawn when the file is created.
"""

from __future__ import annotations

from pathlib import Path

from bot.assistant import Assistant
from bot.assistant.cache import ToolCache
from bot.assistant.tools import NO_PASSAGES, Toolbox, ToolCall
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.registry import SourceRegistry

PUBLIC = frozenset({"public"})
LAUNCH = "# Launch\n\nThe launch code for the rocket is 4711.\n"


def _publish(kb: Path, settings: Settings, *, private: bool, rebuild: bool) -> None:
    front = "---\naudience: [staff]\n---\n" if private else ""
    (kb / "launch.md").write_text(front + LAUNCH, encoding="utf-8")
    assert ingest([kb], settings.index, rebuild=rebuild).indexed == 1


def _settings(tmp_path: Path) -> tuple[Path, Settings]:
    kb = tmp_path / "kb"
    kb.mkdir()
    settings = Settings.model_validate(
        {"index": {"path": str(tmp_path / "index.db")}, "grounding": {"policy": "off"}}
    )
    return kb, settings


async def test_toolbox_forgets_its_cache_when_the_index_is_rebuilt(tmp_path: Path) -> None:
    kb, settings = _settings(tmp_path)
    _publish(kb, settings, private=False, rebuild=False)
    cache = ToolCache(64)
    tools = Toolbox(settings.index.path, cache=cache)  # opened lazily, as `serve` does
    search = [ToolCall("call_1", "search_docs", '{"query": "launch code rocket"}')]
    [before] = await tools.run_calls(search, SourceRegistry(PUBLIC))
    assert "4711" in before
    index = tools.index
    assert index is not None
    generation = index.generation()

    _publish(kb, settings, private=True, rebuild=True)
    assert KnowledgeIndex(settings.index.path).generation() == generation  # the trap
    [after] = await tools.run_calls(search, SourceRegistry(PUBLIC))
    assert after == NO_PASSAGES
    [staff] = await tools.run_calls(search, SourceRegistry(frozenset({"staff"})))
    assert "4711" in staff


async def test_assistant_answers_from_the_rebuilt_index(tmp_path: Path) -> None:
    kb, settings = _settings(tmp_path)
    _publish(kb, settings, private=False, rebuild=False)
    assistant = Assistant.from_settings(settings)
    question = "What is the launch code for the rocket?"
    first = await assistant.reply(question, PUBLIC)
    assert "4711" in first.answer.text and first.answer.citations

    _publish(kb, settings, private=True, rebuild=True)
    second = await assistant.reply(question, PUBLIC)
    assert "4711" not in second.answer.text and not second.answer.citations


def test_a_rebuilt_index_has_a_new_id(tmp_path: Path) -> None:
    kb, settings = _settings(tmp_path)
    _publish(kb, settings, private=False, rebuild=False)
    index = KnowledgeIndex(settings.index.path)
    old_id, old_generation = index.version()
    _publish(kb, settings, private=True, rebuild=True)
    new_id, new_generation = index.version()
    assert old_generation == new_generation and len(old_id) == len(new_id) == 32
    assert new_id != old_id
