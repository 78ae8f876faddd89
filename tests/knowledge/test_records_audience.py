"""A record table's audience is read as a document's: never a table nobody can see."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.records import RecordTables, check_tables

PUBLIC = frozenset({"public"})
STAFF = frozenset({"staff"})
HR = frozenset({"hr"})


def _table(tmp_path: Path, audience: list[str]) -> RecordTable:
    csv = tmp_path / "t.csv"
    csv.write_text("sku,name\nK1,Kettle\n", encoding="utf-8")
    return RecordTable(
        name="t", csv=str(csv), id_column="sku", label_column="name", audience=audience
    )


@pytest.mark.parametrize("audience", [[], ["staff,"], [" , "]])
def test_an_audience_naming_no_group_is_refused_at_start(
    tmp_path: Path, audience: list[str]
) -> None:
    fine = _table(tmp_path, ["public"])
    with pytest.raises(ConfigError, match=re.escape("index.records.1.audience: ")) as caught:
        check_tables([fine, _table(tmp_path, audience).model_copy(update={"name": "u"})])
    assert "write public if everyone may read it" in str(caught.value)


def test_groups_written_in_one_string_are_each_a_group(tmp_path: Path) -> None:
    tables = RecordTables([_table(tmp_path, ["staff, hr"])])
    assert tables.visible(STAFF) == tables.visible(HR) == ["t"]
    assert tables.visible(PUBLIC) == []
    [record] = tables.lookup("t", "K1", HR)
    assert record.audience == ("staff", "hr")
