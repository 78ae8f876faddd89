"""The model-free backend on the sample products table: record citations with their columns."""

from __future__ import annotations

import pytest

from bot.assistant.assistant import Assistant
from bot.config import Settings
from bot.knowledge import KnowledgeIndex

PUBLIC = frozenset({"public"})


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    # the shipped config's records (its columns and action template), as `citecast serve` reads them
    return Assistant(kb_settings, kb_index)


async def test_record_questions_cite_the_record_with_configured_columns(
    assistant: Assistant,
) -> None:
    answer = await assistant.answer("How much does the Team plan cost?", PUBLIC)
    [record] = [c.source for c in answer.citations if c.source.kind == "record"]
    assert record.label == "citecast Team (CC-TEAM)"
    assert "price_usd: 19" in answer.text
    assert "internal_cost" not in answer.text and ": 4" not in answer.text
    assert record.action is not None and record.action.url.endswith("/CC-TEAM")


async def test_record_column_values_can_pick_the_record(assistant: Assistant) -> None:
    answer = await assistant.answer("Which plan gives phone support?", PUBLIC)
    assert answer.citations[0].source.label == "Priority support add-on (CC-SUP)"
    assert "phone within 1 hour" in answer.text


async def test_a_question_about_the_whole_table_lists_its_records(
    assistant: Assistant,
) -> None:
    answer = await assistant.answer("Which plans are available and what do they cost?", PUBLIC)
    items = answer.text.split("\n")
    assert len(items) == len(answer.citations) == 5  # the toolbox's top_k, in file order
    labels = [c.source.label for c in answer.citations]
    assert labels[:2] == ["citecast Community (CC-FREE)", "citecast Team (CC-TEAM)"]
    for item, citation in zip(items, answer.citations, strict=True):
        assert citation.source.kind == "record"
        assert item.startswith(f"- {citation.source.label}: tier: ")
        assert item.endswith(f"[^{citation.n}].")
    assert "price_usd: 19" in answer.text and "internal_cost" not in answer.text


async def test_one_shared_column_word_does_not_list_the_table(assistant: Assistant) -> None:
    # "support" is a column of the table, "contact" is not: half the words, not more
    answer = await assistant.answer("How do I contact support?", PUBLIC)
    assert "\n- " not in answer.text and not answer.text.startswith("- ")
    assert sum(c.source.kind == "record" for c in answer.citations) <= 1
