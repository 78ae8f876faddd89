"""The built-in answerer looks a table up only when the question has a word that could name
one of its records: a distinctive word, or a row id."""

from __future__ import annotations

import pytest

from bot.assistant.cache import ToolCache
from bot.assistant.extractive_records import RecordPick, pick_records
from bot.assistant.tools import Toolbox
from bot.assistant.turn import Turn
from bot.config import RecordTable
from bot.knowledge.records import RecordTables
from bot.knowledge.terms import query_terms
from bot.registry import SourceRegistry

PUBLIC = frozenset({"public"})


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> RecordTables:
    lines = ["sku,name,notes"]
    lines += [f"P-{i:05d},Part {i},gasket seal for pump model {i % 31}" for i in range(3_000)]
    csv = tmp_path_factory.mktemp("parts") / "parts.csv"
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = RecordTable(
        name="parts", csv=str(csv), id_column="sku", label_column="name", columns=["notes"]
    )
    tables = RecordTables([table])
    tables.check()
    return tables


async def _pick(tables: RecordTables, question: str) -> tuple[RecordPick, int]:
    """The pick for ``question`` and how many lookups the answerer asked the toolbox for."""
    cache = ToolCache(16)
    toolbox = Toolbox(None, tables, cache, top_k=5)
    turn = Turn(question, (), SourceRegistry(PUBLIC), toolbox)
    pick = await pick_records(turn, question, query_terms(question), 3)
    return pick, cache.hits + cache.misses


async def test_a_question_of_words_every_record_holds_asks_no_lookup(
    parts: RecordTables,
) -> None:
    pick, lookups = await _pick(parts, "Which gasket seal fits the pump?")
    assert pick == RecordPick()
    assert lookups == 0


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        ("What is Part 1234?", ["parts/P-01234"]),  # "1234" is in one record
        ("Which pump is P-00077?", ["parts/P-00077"]),  # a row id, in no label or value
        ("p-00078 gasket", ["parts/P-00078"]),  # in another letter case
    ],
)
async def test_a_question_naming_a_record_still_looks_it_up(
    parts: RecordTables, question: str, ids: list[str]
) -> None:
    pick, lookups = await _pick(parts, question)
    assert [record.id for record in pick.records][:1] == ids
    assert lookups == 1
