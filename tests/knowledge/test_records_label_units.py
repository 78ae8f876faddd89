"""What a blank value takes with it from a label (its unit), and how an address is written in a
mailto: action."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.knowledge.record_sources import read_records
from bot.knowledge.record_templates import render, render_label

PART = {"name": "Gasket", "sku": "3", "price": ""}


@pytest.mark.parametrize(
    ("template", "label"),
    [
        ("{name} ({sku}) {price:.2f} EUR", "Gasket (3)"),
        ("{name} {price}%", "Gasket"),
        ("{name} – {price} EUR", "Gasket"),
        # more than one word after it is the label's own text, not the value's unit
        ("{name} {price} per month", "Gasket per month"),
    ],
)
def test_a_blank_value_leaves_out_the_unit_that_ends_the_label(template: str, label: str) -> None:
    assert render_label(template, PART) == label


def test_a_filled_value_keeps_its_unit() -> None:
    row = {**PART, "price": "2"}
    assert render_label("{name} ({sku}) {price:.2f} EUR", row) == "Gasket (3) 2.00 EUR"


def test_a_mailto_address_keeps_its_at_sign(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("sku,name,email\nA,Alpha,ana@example.com\n", encoding="utf-8")
    table = RecordTable(
        name="t",
        csv=str(path),
        id_column="sku",
        label_column="name",
        action_url_template="mailto:{email}?subject={name}",
    )
    [record] = read_records(table, "index.records.0")
    assert record.action is not None
    assert record.action.url == "mailto:ana@example.com?subject=Alpha"


def test_an_at_sign_is_quoted_where_it_is_no_address() -> None:
    row = {"email": "ana@example.com", "note": "a@b"}
    assert render("https://example.com/u/{email}", row, url=True) == (
        "https://example.com/u/ana%40example.com"
    )
    assert render("mailto:sales@example.com?body={note}", row, url=True) == (
        "mailto:sales@example.com?body=a%40b"
    )
