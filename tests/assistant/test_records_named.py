"""Extractive answers to questions that name more than one record of a table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.record_match import named_records
from bot.config import RecordTable, Settings
from bot.knowledge import KnowledgeIndex
from bot.knowledge.records import RecordTables
from bot.knowledge.terms import query_terms
from bot.models import Answer
from tests.assistant.conftest import EXAMPLES

PUBLIC = frozenset({"public"})


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex, tables: RecordTables) -> Assistant:
    return Assistant(kb_settings, kb_index, records=tables)


def _records(answer: Answer) -> list[str]:
    return [c.source.id for c in answer.citations if c.source.kind == "record"]


def _named(tables: RecordTables, question: str) -> list[str]:
    terms = query_terms(question)
    weights = tables.distinctive_weights("products", terms)
    found = tables.lookup("products", question, PUBLIC)
    return [r.id for r in named_records(found, terms, weights)]


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        ("Compare Team and Business", ["products/CC-TEAM", "products/CC-BIZ"]),
        ("How many seats do Team and Business have?", ["products/CC-TEAM", "products/CC-BIZ"]),
        ("Which plans have unlimited seats?", ["products/CC-FREE", "products/CC-ENT"]),
    ],
)
async def test_every_record_the_question_names_is_in_the_answer(
    assistant: Assistant, question: str, ids: list[str]
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert _records(answer) == ids
    assert all(f"[^{n}]" in answer.text for n in range(1, len(ids) + 1))


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        # "support" is the column asked about, not the "Priority support add-on"
        ("What support does the Enterprise plan include?", ["products/CC-ENT"]),
        # "business" is only in Team's values ("2 business days"): Business alone is named
        ("How much does the Business plan cost per seat?", ["products/CC-BIZ"]),
        ("What does the Team plan cost?", ["products/CC-TEAM"]),
    ],
)
def test_a_word_a_record_has_only_in_passing_names_no_second_record(
    tables: RecordTables, question: str, ids: list[str]
) -> None:
    assert _named(tables, question) == ids


def test_records_differing_only_in_what_the_question_does_not_ask_tie(
    tables: RecordTables,
) -> None:
    assert _named(tables, "Which plans have unlimited seats?") == [
        "products/CC-FREE",
        "products/CC-ENT",
    ]
    assert _named(tables, "what is the weather on mars 1") == []


async def test_a_table_does_not_crowd_out_the_best_record_of_the_next(
    kb_settings: Settings, kb_index: KnowledgeIndex, tables: RecordTables, tmp_path: Path
) -> None:
    addons = tmp_path / "addons.csv"
    addons.write_text(
        "sku,name,price_usd\nAD-AUD,Audit trail add-on,5\nAD-SSO,Single sign-on add-on,10\n"
        "AD-ARC,Archive add-on,3\nAD-EXP,Export add-on,2\nAD-BRD,Branding add-on,4\n",
        encoding="utf-8",
    )
    both = RecordTables(
        [
            RecordTable(
                name="products",
                csv=str(EXAMPLES / "products.csv"),
                id_column="sku",
                label_template="{name} ({sku})",
                columns=["tier", "price_usd", "seats", "support"],
            ),
            RecordTable(
                name="addons",
                csv=str(addons),
                id_column="sku",
                label_column="name",
                columns=["price_usd"],
            ),
        ]
    )
    assistant = Assistant(kb_settings, kb_index, records=both)
    answer = await assistant.answer("Team or Business, and the audit trail price?", PUBLIC)
    # two record lines at most (half of max_sentences): each table's best, not Business
    assert _records(answer) == ["products/CC-TEAM", "addons/AD-AUD"]
