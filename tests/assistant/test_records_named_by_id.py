"""Extractive answers to questions that name a record by its id, which its label and shown
values do not hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.record_match import id_words, named_by_id
from bot.config import RecordTable, Settings
from bot.knowledge import KnowledgeIndex
from bot.knowledge.records import RecordTables
from bot.models import Answer, Source

PUBLIC = frozenset({"public"})


def _records(answer: Answer) -> list[str]:
    return [c.source.id for c in answer.citations if c.source.kind == "record"]


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex, tmp_path: Path) -> Assistant:
    prices = tmp_path / "prices.csv"
    prices.write_text(
        "sku,name,price\nPX-100,Small pump,100\nPX-200,Large pump,250\nVX-300,Valve,30\n",
        encoding="utf-8",
    )
    kettles = tmp_path / "kettles.csv"
    kettles.write_text(
        "sku,name\nabc,abc steel kettle\nABC,ABC glass kettle\nxyz,xyz toaster\n",
        encoding="utf-8",
    )
    tables = RecordTables(
        [
            RecordTable(
                name="prices",
                csv=str(prices),
                id_column="sku",
                label_column="name",
                columns=["price"],
            ),
            RecordTable(
                name="kettles", csv=str(kettles), id_column="sku", label_template="{sku} {name}"
            ),
        ]
    )
    return Assistant(kb_settings, kb_index, records=tables)


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        ("PX-200", ["prices/PX-200"]),
        ("What does PX-200 cost?", ["prices/PX-200"]),
        # "abc" is in two of three labels, so not distinctive: the id written so decides
        ("What is ABC?", ["kettles/ABC"]),
        ("What is abc?", ["kettles/abc"]),
    ],
)
async def test_a_record_the_question_names_by_its_id_answers_it(
    assistant: Assistant, question: str, ids: list[str]
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert _records(answer) == ids
    assert "[^1]" in answer.text


def test_only_whole_words_that_can_be_an_id_name_a_record() -> None:
    assert id_words("What does PX-200 cost?") >= {"PX-200"}
    assert "PX-200" in id_words("(PX-200)?")
    # a number or a stop word names a row only when it is the whole question
    assert id_words("Can I get 2 seats?") == {"seats"}
    assert id_words("Is it free?") == {"free"}
    assert id_words(" 2? ") == {"2"}


def test_an_id_written_exactly_so_wins_over_one_in_another_case() -> None:
    records = [Source(id="t/abc", kind="record"), Source(id="t/ABC", kind="record")]
    assert [r.id for r in named_by_id(records, frozenset({"ABC"}))] == ["t/ABC"]
    assert [r.id for r in named_by_id(records, frozenset({"Abc"}))] == ["t/abc", "t/ABC"]
    assert named_by_id(records, frozenset({"AB"})) == []
