"""Rows that are not what their table says: without an id, with more cells than the header, or
missed by a template for different reasons."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.record_sources import read_records
from bot.knowledge.records import RecordTables

WHERE = "index.records.0"
PUBLIC = frozenset({"public"})


def _table(tmp_path: Path, text: str, **fields: object) -> RecordTable:
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    return RecordTable.model_validate({"name": "t", "csv": str(path), **fields})


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


PUMPS = "sku,name,price\n1,First pump,10\n,Blank pump,20\n2,Second pump,30\n"


def test_a_row_without_an_id_never_takes_another_rows_id(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = _table(tmp_path, PUMPS, id_column="sku", label_column="name")
    with caplog.at_level(logging.WARNING):
        records = read_records(table, WHERE)
    assert [(r.id, r.label) for r in records] == [
        ("t/1", "First pump"),
        ("t/#2", "Blank pump"),
        ("t/2", "Second pump"),
    ]
    [warning] = _warnings(caplog)
    assert (
        warning
        == f"{WHERE}.id_column: 1 of 3 rows, first row 2: row 2 has no id, so it is cited as t/#2"
    )
    found = RecordTables([table]).lookup("t", "2", PUBLIC)
    assert (found[0].id, found[0].label) == ("t/2", "Second pump")


def test_an_id_keeps_its_citation_when_rows_without_one_are_added_above_it(
    tmp_path: Path,
) -> None:
    before = read_records(_table(tmp_path, "sku,name\n3,Gamma\n", id_column="sku"), WHERE)
    text = "sku,name\n,Alpha\n,Beta\n3,Gamma\n#1,Hash one\n"
    after = read_records(_table(tmp_path, text, id_column="sku", label_column="name"), WHERE)
    assert before[0].id == "t/3"
    # the row written "#1" keeps that id: the blank first row gives way
    assert [r.id for r in after] == ["t/#1.2", "t/#2", "t/3", "t/#1"]


def test_a_row_wider_than_its_header_is_warned_about_and_not_served(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # "Pump, large" unquoted: its price would read "large"; trailing blank cells are Excel's
    text = "sku,name,price\nA1,Pump, large,10\nB2,Valve,5,,\nC3,Hose,7\n"
    table = _table(tmp_path, text, label_column="name", columns=["price"])
    with caplog.at_level(logging.WARNING):
        records = read_records(table, WHERE)
    # the rows after it keep their numbers, so their ids
    assert [(r.id, r.columns) for r in records] == [
        ("t/2", {"price": "5"}),
        ("t/3", {"price": "7"}),
    ]
    assert _warnings(caplog) == [
        f"{WHERE}.csv: 1 of 3 rows, first row 1: row 1 has 4 cells, the header 3: a value may "
        "hold an unquoted comma (such rows are left out; quote a value that holds a comma)"
    ]


def test_a_header_every_row_is_wider_than_is_refused(tmp_path: Path) -> None:
    table = _table(tmp_path, "sku,name\nA1,Pump, large\nB2,Valve, small,,\n", id_column="sku")
    with pytest.raises(ConfigError) as caught:
        read_records(table, WHERE)
    assert str(caught.value) == (
        f"{WHERE}.csv: row 1 has 3 cells, the header 2: a value may hold an unquoted comma"
    )


def test_each_reason_a_template_missed_rows_for_is_warned_about(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    text = "sku,name,email\nx/y,Blank mail,\n..,Dots,ana@example.com\nok,Fine,bo@example.com\n"
    table = _table(
        tmp_path,
        text,
        id_column="sku",
        label_column="name",
        action_url_template="https://shop.example.com/item/{sku}?m={email}",
    )
    with caplog.at_level(logging.WARNING):
        records = read_records(table, WHERE)
    assert [r.action is not None for r in records] == [False, False, True]
    warnings = _warnings(caplog)
    assert len(warnings) == 2
    assert warnings[0].startswith(f"{WHERE}.action_url_template: 1 of 3 rows, first row 1: ")
    assert "column 'email' is blank" in warnings[0]
    assert warnings[1].startswith(f"{WHERE}.action_url_template: 1 of 3 rows, first row 2: ")
    assert "has a '.' or '..' path segment" in warnings[1]
