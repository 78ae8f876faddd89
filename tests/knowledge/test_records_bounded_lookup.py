"""Lookups in a large record table: a word most rows hold is not ranked over all of them, and
the records found are those ranking every word finds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.knowledge.records import RecordTables
from bot.knowledge.terms import fts_query

PUBLIC = frozenset({"public"})
QUESTIONS = [
    "which gasket seal fits the pump",  # every word in every row
    "pump model 7 part 12",  # common words beside two a few rows hold together
    "part 976 gasket",  # one rarer word beside a common one
    "gasket 17",
    "which zorblax fits",  # no row holds a word
]


def _parts(tmp_path: Path, rows: int) -> RecordTables:
    lines = ["sku,name,notes"]
    lines += [f"P-{i:06d},part {i % 977},gasket seal for pump model {i % 31}" for i in range(rows)]
    csv = tmp_path / f"parts{rows}.csv"
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = RecordTable(name="parts", csv=str(csv), id_column="sku", columns=["name", "notes"])
    tables = RecordTables([table])
    tables.check()
    return tables


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> RecordTables:
    return _parts(tmp_path_factory.mktemp("parts"), 20_000)


def _steps(tables: RecordTables, query: str) -> int:
    """SQLite virtual machine steps of one lookup: a row the ranking scores costs several."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    tables._db.set_progress_handler(count, 1)
    try:
        tables.lookup("parts", query, PUBLIC)
    finally:
        tables._db.set_progress_handler(None, 1)
    return steps


def _every_word_ranked(tables: RecordTables, query: str, limit: int = 5) -> list[str]:
    """The records BM25 over every word of ``query`` ranks first: each row scored."""
    match = fts_query(query)
    if match is None:
        return []
    db: sqlite3.Connection = tables._db
    rows = db.execute(
        "SELECT rowid FROM records_0 WHERE records_0 MATCH ? ORDER BY rank LIMIT ?",
        (match, limit),
    )
    return [f"parts/P-{int(row[0]):06d}" for row in rows]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_bounded_lookup_finds_the_records_ranking_every_word_finds(
    parts: RecordTables, question: str
) -> None:
    found = [record.id for record in parts.lookup("parts", question, PUBLIC)]
    assert found == _every_word_ranked(parts, question)


def test_a_word_in_every_row_is_not_ranked_over_the_whole_table(
    parts: RecordTables, tmp_path: Path
) -> None:
    question = "which gasket seal fits the pump"
    rows = len(parts._records["parts"])
    larger = _parts(tmp_path, 4 * rows)
    small, large = _steps(parts, question), _steps(larger, question)
    # bounded by the row budget, not by the table: four times the rows, about the same work
    assert large < small * 1.25
    # ranking every row took about 15 steps a row
    assert small < 10 * rows
    assert [r.id for r in larger.lookup("parts", question, PUBLIC)] == [
        f"parts/P-{i:06d}" for i in range(5)
    ]


def test_a_small_table_runs_the_query_it_always_did(tmp_path: Path) -> None:
    csv = tmp_path / "t.csv"
    rows = "".join(f"K{i},Kettle {i},{'red' if i % 2 else 'blue'} steel\n" for i in range(60))
    csv.write_text("sku,name,colour\n" + rows, encoding="utf-8")
    table = RecordTable(
        name="parts", csv=str(csv), id_column="sku", label_column="name", columns=["colour"]
    )
    tables = RecordTables([table])
    for question in ("red steel kettle 7", "blue kettles", "K12"):
        found = [r.label for r in tables.lookup("parts", question, PUBLIC)]
        match = fts_query(question)
        assert match is not None
        expected = [
            f"Kettle {int(row[0])}"
            for row in tables._db.execute(
                "SELECT rowid FROM records_0 WHERE records_0 MATCH ? ORDER BY rank LIMIT 5",
                (match,),
            )
        ]
        if question == "K12":  # the record whose id is the whole query comes first
            expected = ["Kettle 12", *(label for label in expected if label != "Kettle 12")][:5]
        assert found == expected
