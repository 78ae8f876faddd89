"""A question of which at most one word is anywhere in the knowledge base (and not every word)
is not answered with a loosely related source: the built-in answerer says it found nothing."""

from __future__ import annotations

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.models import Answer, Exchange

PUBLIC = frozenset({"public"})
STAFF = frozenset({"staff"})
INSTALL = "How do I install citecast on Linux?"


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    return Assistant(kb_settings, kb_index)


async def follow_up(assistant: Assistant, first: str, then: str) -> Answer:
    earlier = await assistant.answer(first, PUBLIC)
    return await assistant.answer(then, PUBLIC, [Exchange(first, earlier.text)])


@pytest.mark.parametrize(
    "question",
    [
        "What is the meaning of life?",  # "means" is in the handbook, "life" nowhere
        "Anyone on ARM?",
        "Does a bug loop?",
    ],
)
async def test_a_question_resting_on_one_found_word_is_not_found(
    assistant: Assistant, question: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert answer.text == NOT_FOUND and answer.citations == ()


@pytest.mark.parametrize("then", ["And SSO?", "Thanks! And on Windows?"])
async def test_a_follow_up_about_something_missing_does_not_repeat_the_last_answer(
    assistant: Assistant, then: str
) -> None:
    answer = await follow_up(assistant, INSTALL, then)
    assert answer.text == NOT_FOUND and answer.citations == ()


async def test_words_only_a_private_document_holds_are_missing_for_a_public_viewer(
    assistant: Assistant,
) -> None:
    question = "Where is the walrus documented?"
    public = await assistant.answer(question, PUBLIC)
    assert public.text == NOT_FOUND and public.citations == ()
    staff = await assistant.answer(question, STAFF)
    assert [c.source.filename for c in staff.citations] == ["salaries.md"]


async def test_words_a_record_table_names_or_holds_are_not_missing(
    assistant: Assistant,
) -> None:
    # "seats" is only a column of the products table, not in any document
    answer = await follow_up(assistant, "How much is the Team plan?", "And seats?")
    assert answer.citations and all(c.source.kind == "record" for c in answer.citations)
    # "plan" and "cost" are only in the table's description; the record answers
    priced = await assistant.answer("What does the Team plan cost?", PUBLIC)
    assert priced.citations[0].source.label == "citecast Team (CC-TEAM)"


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("Hi, how do I install citecast? Thanks!", "Install"),  # greetings are no topic
        ("Hi! Slack?", "Slack"),
        # two words found: the answer rests on more than one word of the question
        ("How do I install citecast on a Raspberry Pi?", "Install"),
    ],
)
async def test_questions_with_words_the_knowledge_base_lacks_can_still_be_answered(
    assistant: Assistant, question: str, section: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert any(section in (c.source.section or "") for c in answer.citations)


@pytest.mark.parametrize(
    ("first", "then", "section"),
    [
        (INSTALL, "And on macOS?", "macOS"),
        (INSTALL, "And Slack?", "Slack"),
        (INSTALL, "Why?", "Linux"),  # no words of its own: answered with the earlier question
    ],
)
async def test_follow_ups_the_knowledge_base_covers_are_still_answered(
    assistant: Assistant, first: str, then: str, section: str
) -> None:
    answer = await follow_up(assistant, first, then)
    assert any(section in (c.source.section or "") for c in answer.citations)
