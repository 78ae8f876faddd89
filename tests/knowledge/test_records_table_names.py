"""A table's name starts each of its records' citation ids, so it must not hold a '/'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.records import check_tables


def test_a_name_with_a_slash_is_refused_at_start(tmp_path: Path) -> None:
    # table "a" with the row "b/c" and table "a/b" with the row "c" were both "a/b/c": one
    # citation number for two records, the second cited with the first's label
    (tmp_path / "a.csv").write_text("sku,name\nb/c,Alpha\n", encoding="utf-8")
    (tmp_path / "ab.csv").write_text("sku,name\nc,Beta\n", encoding="utf-8")
    tables = [
        RecordTable(name="a", csv=str(tmp_path / "a.csv"), id_column="sku", label_column="name"),
        RecordTable(name="a/b", csv=str(tmp_path / "ab.csv"), id_column="sku", label_column="name"),
    ]
    message = (
        "index.records.1.name: 'a/b' has a '/', which ends a table's name in a citation id "
        "(products/CC-TEAM); choose a name without one"
    )
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        check_tables(tables)


def test_a_row_id_may_still_hold_a_slash(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("sku,name\nb/c,Alpha\n", encoding="utf-8")
    table = RecordTable(name="a", csv=str(tmp_path / "a.csv"), id_column="sku")
    loaded = check_tables([table])
    assert loaded is not None
    assert [r.id for r in loaded.lookup("a", "b/c", {"public"})] == ["a/b/c"]
