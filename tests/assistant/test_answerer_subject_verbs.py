"""A verb a question's noun phrase runs on into is no subject word the documents must write.

"Does the Team plan include phone support?" reads "the Team plan include phone support" as one
noun phrase (its object has no article), so "include" was a subject word, and a knowledge base
that says "The Team plan comes with phone support" answered it "not found". A subject nothing
holds ("gold", "penguin", "llamas") still gets the not-found reply, wherever the verb stands.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_subjects import subject_words
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.knowledge.records import RecordTables
from tests.assistant.handbook_index import ask, ingested

PUBLIC = frozenset({"public"})

# writes none of the verbs the questions ask with ("include", "offer", "provide", "cover")
PLANS = """\
# Plans

The Team plan comes with phone support.

The Business plan comes with a named engineer and chat help within eight hours.
"""


@pytest.fixture(scope="module")
def plans(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config whose index holds one page about what each plan comes with."""
    return ingested(tmp_path_factory.mktemp("subject-verbs"), {"plans.md": PLANS})


@pytest.mark.parametrize(
    ("question", "start"),
    [
        ("Does the Team plan include phone support?", "The Team plan comes with phone support"),
        ("Does the Team plan offer phone support?", "The Team plan comes with phone support"),
        ("Which plan includes phone support?", "The Team plan comes with phone support"),
        ("Does the Business plan provide chat help?", "The Business plan comes with a named"),
        ("Will the Business plan cover chat help?", "The Business plan comes with a named"),
    ],
)
def test_a_verb_no_document_writes_does_not_hide_the_answer(
    plans: Path, capsys: pytest.CaptureFixture[str], question: str, start: str
) -> None:
    assert ask(plans, question, capsys)[0].startswith(start)


@pytest.mark.parametrize(
    "question",
    [
        "Does the gold plan include phone support?",
        "Does the penguin plan offer chat help?",
        "Which plan includes llamas?",
        "how much does the gold plan cost?",
    ],
)
def test_a_subject_nothing_holds_is_still_not_found(
    plans: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    assert ask(plans, question, capsys) == (NOT_FOUND, "")


@pytest.mark.parametrize(
    ("question", "record"),
    [
        ("Does the Team plan include phone support?", "products/CC-TEAM"),
        ("Does the Business plan offer chat support?", "products/CC-BIZ"),
        ("Which plan includes phone support?", "products/CC-SUP"),
    ],
)
async def test_the_sample_knowledge_base_answers_with_the_plan_asked_about(
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    tables: RecordTables,
    question: str,
    record: str,
) -> None:
    answer = await Assistant(kb_settings, kb_index, records=tables).answer(question, PUBLIC)
    assert record in [c.source.id for c in answer.citations]


async def test_the_sample_knowledge_base_still_knows_no_gold_plan(
    kb_settings: Settings, kb_index: KnowledgeIndex, tables: RecordTables
) -> None:
    assistant = Assistant(kb_settings, kb_index, records=tables)
    answer = await assistant.answer("Does the gold plan include phone support?", PUBLIC)
    assert (answer.text, answer.citations) == (NOT_FOUND, ())


@pytest.mark.parametrize(
    ("question", "subjects"),
    [
        ("Does the Team plan include phone support?", ["team", "phone"]),
        # the verb in any form the stemmer brings back, after a "which" phrase too
        ("Which plans included chat support?", ["chat"]),
        ("Does the Team plan supports calls?", ["team", "calls"]),
        # the object after the verb is a subject as well; "emails" is no verb
        ("Can the bot send emails?", ["bot", "emails"]),
        ("Does the plan cover llamas?", ["llamas"]),
        # right after an opener a verb-like word names a thing
        ("What is the file content about the export?", ["export"]),
        ("Does the support cost extra per seat?", ["support", "extra"]),
        # a verb the list does not know still ends a question asked with "do"
        ("Does the penguin plan vanish?", ["penguin"]),
    ],
)
def test_subject_words_leave_out_the_verb(question: str, subjects: list[str]) -> None:
    assert subject_words(question) == subjects
