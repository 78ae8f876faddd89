"""An index that exists but cannot be searched, or none at all, fails the built-in answerer's
turn with the reason, instead of answering "I could not find anything" as if the documents
lacked it."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.config import Settings
from bot.errors import KnowledgeIndexError
from bot.knowledge import KnowledgeIndex, ingest

PUBLIC = frozenset({"public"})
QUESTION = "What does the retry policy do?"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "a.md").write_text("# Retries\n\nThe retry policy backs off.\n", encoding="utf-8")
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "index.db")}})
    assert ingest([kb], settings.index).indexed == 1
    return settings


def overwrite(path: str) -> None:
    with open(path, "r+b") as index_file:
        index_file.write(b"not a database" * 512)


def drop_search_table(path: str) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute("DROP TABLE chunks_fts")
        db.commit()


async def test_a_working_index_answers(settings: Settings) -> None:
    answer = await Assistant(settings, settings.index.path).answer(QUESTION, PUBLIC)
    assert answer.citations and answer.text != NOT_FOUND


async def test_an_index_that_breaks_while_serving_fails_the_turn(settings: Settings) -> None:
    assistant = Assistant(settings, KnowledgeIndex(settings.index.path))
    assert (await assistant.answer(QUESTION, PUBLIC)).citations
    drop_search_table(settings.index.path)
    with pytest.raises(KnowledgeIndexError) as caught:
        await assistant.answer("How does the retry policy back off?", PUBLIC)
    assert settings.index.path in str(caught.value)


async def test_an_index_unreadable_when_first_opened_fails_with_the_rebuild_hint(
    settings: Settings,
) -> None:
    assistant = Assistant(settings, settings.index.path)  # opened at the first question
    overwrite(settings.index.path)
    with pytest.raises(KnowledgeIndexError, match="rebuild"):
        await assistant.answer(QUESTION, PUBLIC)


async def test_a_stream_fails_the_same_way(settings: Settings) -> None:
    assistant = Assistant(settings, settings.index.path)
    overwrite(settings.index.path)
    with pytest.raises(KnowledgeIndexError):
        async for _ in assistant.stream(QUESTION, PUBLIC):
            pass


async def test_a_missing_index_fails_the_turn_with_the_ingest_hint(tmp_path: Path) -> None:
    # "not found" would blame the documents; the channels say citecast is not set up instead
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "none.db")}})
    assistant = Assistant(settings, settings.index.path)
    with pytest.raises(KnowledgeIndexError, match=re.escape("run `citecast ingest PATH`")):
        await assistant.answer(QUESTION, PUBLIC)
    with pytest.raises(KnowledgeIndexError):
        async for _ in assistant.stream(QUESTION, PUBLIC):
            pass
    assert (await assistant.answer("thanks!", PUBLIC)).text != NOT_FOUND  # small talk: no search
