"""Looking records up: by a row id that differs from another only in letter case, and by
the distinctive words of a question, however many questions are asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.knowledge import records as records_module
from bot.knowledge.records import RecordTables
from bot.models import Source

PUBLIC = frozenset({"public"})


def _tables(tmp_path: Path, text: str) -> RecordTables:
    csv = tmp_path / "t.csv"
    csv.write_text(text, encoding="utf-8")
    table = RecordTable(name="t", csv=str(csv), id_column="sku", label_column="name")
    return RecordTables([table])


def test_the_id_written_exactly_wins_over_one_differing_in_case(tmp_path: Path) -> None:
    tables = _tables(tmp_path, "sku,name\nabc,Lower\nABC,Upper\n")
    assert [r.id for r in tables.lookup("t", "ABC", PUBLIC)][:1] == ["t/ABC"]
    assert [r.id for r in tables.lookup("t", "abc", PUBLIC)][:1] == ["t/abc"]
    assert [r.id for r in tables.lookup("t", "'ABC'", PUBLIC)][:1] == ["t/ABC"]


def test_ids_differing_only_in_case_all_lead_a_lookup_in_a_third_case(tmp_path: Path) -> None:
    tables = _tables(tmp_path, "sku,name\nK1,Kettle\nabc,Lower\nABC,Upper\n")
    assert [r.id for r in tables.lookup("t", "Abc", PUBLIC)][:2] == ["t/abc", "t/ABC"]
    assert [r.label for r in tables.lookup("t", "k1", PUBLIC)][:1] == ["Kettle"]


def test_distinctive_words_are_counted_once_per_table_not_per_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = "".join(f"K{i},Kettle {i},{'red' if i % 2 else 'blue'}\n" for i in range(40))
    csv = tmp_path / "t.csv"
    csv.write_text("sku,name,colour\n" + rows, encoding="utf-8")
    table = RecordTable(
        name="t", csv=str(csv), id_column="sku", label_column="name", columns=["colour"]
    )
    tables = RecordTables([table])
    tables.check()
    read: list[str] = []
    original = records_module.record_terms

    def counting(record: Source) -> frozenset[str]:
        read.append(record.id)
        return original(record)

    monkeypatch.setattr(records_module, "record_terms", counting)
    for _ in range(3):
        weights = tables.distinctive_weights("t", ["kettle", "red", "7", "blue", "green"])
        # "kettle" is in every record, "red" and "blue" in half, "7" in one, "green" in none
        assert weights.keys() == {"red", "blue", "7"}
        assert weights["7"] > weights["red"] == weights["blue"]
    assert read == []  # no question reads every record again
