"""A verb that only carries the question ("made", "done", "taken") names no topic: a question
whose topic the knowledge base covers is answered even though no document writes that verb."""

from __future__ import annotations

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.config import Settings
from bot.knowledge import KnowledgeIndex

PUBLIC = frozenset({"public"})


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    return Assistant(kb_settings, kb_index)


@pytest.mark.parametrize(
    "question",
    [
        "How are backups made?",
        "How are backups done?",
        "When are backups taken?",
        "What happens to backups?",
    ],
)
async def test_a_light_verb_does_not_hide_a_covered_topic(
    assistant: Assistant, question: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert answer.text != NOT_FOUND
    assert any("Backups" in (c.source.section or "") for c in answer.citations)


@pytest.mark.parametrize(
    "question",
    [
        "What is the meaning of life?",
        "What is made of cheese?",  # the light verb alone is no topic either
        "How is the walrus made?",  # nothing holds "walrus" for a public viewer
    ],
)
async def test_a_light_verb_does_not_make_an_unknown_topic_answerable(
    assistant: Assistant, question: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert answer.text == NOT_FOUND and answer.citations == ()
