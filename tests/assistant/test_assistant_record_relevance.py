"""Record lines in extractive answers: one shared word is not enough, the best record wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.assistant.record_match import about_whole_table, best_record, record_score
from bot.config import RecordTable, Settings
from bot.knowledge import KnowledgeIndex
from bot.knowledge.records import RecordTables
from bot.knowledge.terms import fts_query, query_terms
from bot.models import Answer
from tests.assistant.conftest import EXAMPLES

PUBLIC = frozenset({"public"})


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex, tables: RecordTables) -> Assistant:
    return Assistant(kb_settings, kb_index, records=tables)


def _records(answer: Answer) -> list[str]:
    return [c.source.label or "" for c in answer.citations if c.source.kind == "record"]


async def test_the_named_record_beats_one_sharing_a_minor_word(assistant: Assistant) -> None:
    answer = await assistant.answer("How much does the Business plan cost per seat?", PUBLIC)
    assert _records(answer) == ["citecast Business (CC-BIZ)"]
    assert "price_usd: 49" in answer.text and "CC-SUP" not in answer.text


async def test_one_stray_matching_word_is_no_answer(assistant: Assistant) -> None:
    answer = await assistant.answer("what is the weather on mars 1", PUBLIC)
    assert answer.text == NOT_FOUND and answer.citations == ()


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("What does the Team plan cost?", "citecast Team (CC-TEAM)"),
        ("What does Business cost?", "citecast Business (CC-BIZ)"),
        ("Which plan gives phone support?", "Priority support add-on (CC-SUP)"),
    ],
)
async def test_record_questions_still_get_their_record(
    assistant: Assistant, question: str, label: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert _records(answer) == [label]


def test_record_score_needs_the_label_or_half_the_question(tables: RecordTables) -> None:
    records = tables.lookup("products", "weather on mars 1 per day", PUBLIC)
    terms = query_terms("weather on mars 1 per day")
    weights = tables.distinctive_weights("products", terms)
    assert weights.keys() >= {"1", "per"} and records
    assert all(record_score(r, terms, weights) == 0 for r in records)
    assert best_record(records, terms, weights) is None
    # Values covering half of the question's words are enough without the label.
    terms = query_terms("phone within 1 hour")
    weights = tables.distinctive_weights("products", terms)
    found = best_record(tables.lookup("products", "phone within 1 hour", PUBLIC), terms, weights)
    assert found is not None and found.id == "products/CC-SUP"


@pytest.mark.parametrize(
    ("question", "described", "undescribed"),
    [
        ("Which plans are available and what do they cost?", True, False),
        ("What is the price of each plan?", True, False),  # "price" from price_usd
        ("List the products", True, True),  # the table's own name
        ("Which plans are available?", True, False),  # "available" counts for nothing
        ("How do I contact support?", False, False),  # one of two words: not more than half
        ("What does the retry policy do?", False, False),
    ],
)
def test_a_question_about_the_whole_table_needs_most_of_its_words(
    tables: RecordTables, question: str, described: bool, undescribed: bool
) -> None:
    with_description = RecordTables(
        [RecordTable(name="products", csv=str(EXAMPLES / "products.csv"),
                     columns=["tier", "price_usd", "seats", "support"],
                     description="Plans and pricing: what each plan costs")]
    )  # fmt: skip
    terms = query_terms(question)
    assert about_whole_table(with_description.topic_terms("products"), terms) is described
    assert about_whole_table(tables.topic_terms("products"), terms) is undescribed


def test_how_long_much_many_and_often_only_shape_the_question() -> None:
    assert query_terms("How long do download links last?") == ["download", "links", "last"]
    assert query_terms("How much does Team cost? How many seats?") == ["team", "cost", "seats"]
    assert query_terms("how often is the long index rebuilt") == ["long", "index", "rebuilt"]
    assert fts_query("How long?") is None


def test_the_work_that_ends_how_does_it_work_only_shapes_the_question() -> None:
    assert query_terms("How do audiences work?") == ["audiences"]
    assert query_terms("How does the retry policy work") == ["retry", "policy"]
    assert query_terms("Does citecast work offline?") == ["citecast", "work", "offline"]


async def test_listed_records_stay_one_item_each_whatever_their_values_hold(
    kb_settings: Settings, kb_index: KnowledgeIndex, tmp_path: Path
) -> None:
    csv_file = tmp_path / "offices.csv"
    csv_file.write_text(
        'city,address\nOslo,"Storgata 1\n0155 Oslo"\nLima,"Av. Arequipa 2\n\n- Lima 15046"\n',
        encoding="utf-8",
    )
    offices = RecordTables(
        [RecordTable(name="offices", csv=str(csv_file), label_column="city",
                     columns=["address"], description="Our offices and their addresses")]
    )  # fmt: skip
    answer = await Assistant(kb_settings, kb_index, records=offices).answer(
        "Which offices are there?", PUBLIC
    )
    assert answer.text.split("\n") == [
        "- Oslo: address: Storgata 1 0155 Oslo [^1].",
        "- Lima: address: Av. Arequipa 2 - Lima 15046 [^2].",
    ]
