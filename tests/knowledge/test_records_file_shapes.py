"""Record files as spreadsheets and other tools leave them: blank lines above the header, JSON."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.record_sources import read_records
from bot.knowledge.records import check_tables

WHERE = "index.records.0"


def _table(tmp_path: Path, text: str, name: str = "t.csv") -> RecordTable:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return RecordTable(name="t", csv=str(path), id_column="sku", label_column="name")


@pytest.mark.parametrize("above", ["\n", "\r\n\r\n", ",,\n", " , \n\n"])
def test_blank_lines_above_the_header_are_skipped(tmp_path: Path, above: str) -> None:
    table = _table(tmp_path, f"{above}sku,name\nA1,Alpha\nA2,Beta\n")
    records = read_records(table, WHERE)
    assert [(r.id, r.label) for r in records] == [("t/A1", "Alpha"), ("t/A2", "Beta")]


def test_a_file_of_blank_lines_has_no_header(tmp_path: Path) -> None:
    table = _table(tmp_path, "\n,,\n\n")
    with pytest.raises(ConfigError, match=re.escape(f"{WHERE}.csv: ") + ".* is empty"):
        check_tables([table])


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("t.json", '[{"sku": "A1", "name": "Alpha"}]\n'),
        ("t.jsonl", '{"sku": "A1", "name": "Alpha"}\n{"sku": "A2", "name": "Beta"}\n'),
    ],
)
def test_a_json_file_is_refused_with_a_hint_to_save_it_as_csv(
    tmp_path: Path, name: str, text: str
) -> None:
    table = _table(tmp_path, text, name)
    with pytest.raises(ConfigError) as caught:
        check_tables([table])
    message = str(caught.value)
    assert message.startswith(f"{WHERE}.id_column: no column 'sku' in table 't'")
    assert message.endswith("; the file is read as CSV, and JSON is not supported: save it as CSV")
