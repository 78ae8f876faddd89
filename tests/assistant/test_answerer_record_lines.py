"""A record that answers the question is not followed by sentences that only repeat its words."""

from __future__ import annotations

import pytest

from bot.assistant.assistant import Assistant
from bot.config import Settings
from bot.knowledge import KnowledgeIndex

PUBLIC = frozenset({"public"})


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    return Assistant(kb_settings, kb_index)


async def test_a_plan_price_is_not_followed_by_sentences_about_teams(
    assistant: Assistant,
) -> None:
    # the guides say citecast is "for a team" and how to install it: nothing about a price
    answer = await assistant.answer("How much does citecast Team cost?", PUBLIC)
    assert answer.text.startswith("citecast Team (CC-TEAM)")
    assert "for a team" not in answer.text and "Python" not in answer.text
    assert [c.source.id for c in answer.citations] == ["products/CC-TEAM"]


async def test_the_add_on_price_is_not_followed_by_the_widget_script(
    assistant: Assistant,
) -> None:
    # "Add one script tag" used to count as the "add" of "add-on"
    answer = await assistant.answer("What does the add-on cost?", PUBLIC)
    assert answer.text.startswith("Priority support add-on (CC-SUP)")
    assert "<script" not in answer.text and "script tag" not in answer.text
    assert len(answer.citations) == 1


async def test_a_record_still_gets_the_sentences_on_words_it_lacks(
    assistant: Assistant,
) -> None:
    # "compare" is in no record: a sentence that holds it still follows the two plans, while
    # one that only says "teams" (the records' own word) no longer does
    answer = await assistant.answer("Compare Team and Business", PUBLIC)
    assert answer.text.startswith("citecast Team (CC-TEAM)")
    assert "citecast Business (CC-BIZ)" in answer.text
    assert "compare citation precision" in answer.text
    assert "most teams" not in answer.text
