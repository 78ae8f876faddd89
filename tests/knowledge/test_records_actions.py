"""Record actions built from blank values: no button rather than one to the wrong page."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.knowledge.record_sources import read_records
from bot.knowledge.records import check_tables

WHERE = "index.records.0"


def _csv(tmp_path: Path, text: str) -> str:
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_row_whose_action_value_is_blank_has_no_action(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    csv = _csv(tmp_path, "sku,name,slug\nA,Alpha,alpha\nB,Beta,\nC,Gamma,  \n")
    table = RecordTable(
        name="t",
        csv=csv,
        id_column="sku",
        label_column="name",
        action_url_template="https://shop.example.com/p/{slug}",
    )
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        records = read_records(table, WHERE)
    assert [r.action.url if r.action else None for r in records] == [
        "https://shop.example.com/p/alpha",
        None,
        None,
    ]
    [warning] = [r.getMessage() for r in caplog.records]
    assert f"{WHERE}.action_url_template: 2 of 3 rows, first row 2" in warning
    assert "column 'slug' is blank (such rows have no action)" in warning


def test_an_empty_mailto_is_no_action_and_a_table_of_them_still_serves(tmp_path: Path) -> None:
    csv = _csv(tmp_path, "sku,name,email\nA,Alpha,\n")
    table = RecordTable(
        name="t",
        csv=csv,
        id_column="sku",
        label_column="name",
        columns=["email"],
        action_url_template="mailto:{email}",
    )
    [record] = read_records(table, WHERE)
    assert record.action is None
    assert check_tables([table]) is not None
