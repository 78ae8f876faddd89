"""Record values as people write them: very long cells, numbers under a format spec, blanks."""

from __future__ import annotations

import logging
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.record_rows import MAX_VALUE_CHARS
from bot.knowledge.record_sources import read_records
from bot.knowledge.record_templates import render, render_label
from bot.knowledge.records import check_tables

WHERE = "index.records.0"
LONG = "word " * 2_000  # 9,999 characters once trimmed


def _csv(tmp_path: Path, text: str) -> str:
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _table(csv: str, **settings: object) -> RecordTable:
    fields: dict[str, object] = {"name": "t", "csv": csv, "id_column": "sku", **settings}
    return RecordTable.model_validate(fields)


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


# -- long values -------------------------------------------------------------------------------


def test_a_long_value_is_cut_with_one_warning_naming_file_row_and_column(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    csv = _csv(tmp_path, f"sku,name,notes\nA1,Alpha,short\nB2,Beta,{LONG}\nC3,Gamma,{LONG}\n")
    table = _table(csv, label_column="name", columns=["notes"])
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        records = read_records(table, WHERE)
    # no row is lost, and the short one is untouched
    assert [r.id for r in records] == ["t/A1", "t/B2", "t/C3"]
    assert records[0].columns == {"notes": "short"}
    cut = (records[1].columns or {})["notes"]
    assert len(cut) <= MAX_VALUE_CHARS and cut.endswith("word\u2026")
    assert len(records[1].text or "") < 2 * MAX_VALUE_CHARS
    [warning] = _warnings(caplog)
    assert warning == (
        f"{WHERE}.csv: 2 of 3 rows, first row 2: column 'notes' of {csv} holds 9,999 "
        f"characters (such values are cut to {MAX_VALUE_CHARS:,} characters, ending in …)"
    )


def test_a_long_label_or_id_is_cut_too(tmp_path: Path) -> None:
    csv = _csv(tmp_path, f"sku,name\n{'K' * 5000},{'N' * 5000}\n")
    [record] = read_records(_table(csv, label_column="name"), WHERE)
    assert record.label == "N" * (MAX_VALUE_CHARS - 1) + "\u2026"
    assert record.id == "t/" + "K" * (MAX_VALUE_CHARS - 1) + "\u2026"


def test_a_long_column_nobody_shows_is_not_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    csv = _csv(tmp_path, f"sku,name,internal\nA1,Alpha,{LONG}\n")
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        [record] = read_records(_table(csv, label_column="name"), WHERE)
    assert record.label == "Alpha" and not _warnings(caplog)


def test_an_action_from_a_value_that_was_cut_is_left_out(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    csv = _csv(tmp_path, f"sku,name,slug\nA1,Alpha,alpha\nB2,Beta,{'b' * 3000}\n")
    table = _table(
        csv, label_column="name", action_url_template="https://shop.example.com/p/{slug}"
    )
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        records = read_records(table, WHERE)
    assert [r.action.url if r.action else None for r in records] == [
        "https://shop.example.com/p/alpha",
        None,
    ]
    assert any(
        f"{WHERE}.action_url_template: 1 of 2 rows, first row 2: column 'slug' is longer than "
        "2,000 characters (such rows have no action)" == warning
        for warning in _warnings(caplog)
    )


def test_a_long_sqlite_value_is_cut_and_names_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "shop.db"
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE items (sku TEXT, name TEXT)")
        conn.execute("INSERT INTO items VALUES (?, ?)", ("A1", LONG))
        conn.commit()
    table = RecordTable(name="t", sqlite=str(db), table="items", id_column="sku", columns=["name"])
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        [record] = read_records(table, WHERE)
    assert len((record.columns or {})["name"]) <= MAX_VALUE_CHARS
    [warning] = _warnings(caplog)
    assert warning.startswith(f"{WHERE}.sqlite: 1 of 1 rows, first row 1: column 'name' of ")
    assert f"table 'items' of {db} holds 9,999 characters" in warning


# -- format specs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "value", "label"),
    [
        ("{name} ({price:.2f})", "19", "Alpha (19.00)"),
        ("{name} ({price:.2f})", "-1.5", "Alpha (-1.50)"),
        ("{name} ({price:,})", "1299", "Alpha (1,299)"),
        ("{name} ({price:+})", "19", "Alpha (+19)"),
        ("{name:.3} ({price})", "19", "Alp (19)"),  # a text spec still applies to text
        ("{name} ({price:03d})", "7", "Alpha (007)"),
        ("{name} ({price:.0%})", "0.25", "Alpha (25%)"),
    ],
)
def test_a_number_format_spec_applies_to_a_value_written_as_a_number(
    tmp_path: Path, template: str, value: str, label: str
) -> None:
    csv = _csv(tmp_path, f"sku,name,price\nA1,Alpha,{value}\n")
    [record] = read_records(_table(csv, label_template=template), WHERE)
    assert record.label == label


def test_a_value_that_is_not_a_number_gets_the_default_label_and_a_clear_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    csv = _csv(tmp_path, "sku,name,price\nA1,Alpha,19\nB2,Beta,contact sales\n")
    table = _table(csv, label_template="{name} ({price:.2f})")
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        records = read_records(table, WHERE)
    assert [r.label for r in records] == ["Alpha (19.00)", "t B2"]
    [warning] = _warnings(caplog)
    assert warning == (
        f"{WHERE}.label_template: 1 of 2 rows, first row 2: {{price:.2f}} needs a number, and "
        "'contact sales' is not one (such rows are labelled with the table name and row id)"
    )


def test_a_number_spec_on_a_column_of_words_is_refused_at_start(tmp_path: Path) -> None:
    csv = _csv(tmp_path, "sku,name\nA1,Alpha\nB2,Beta\n")
    message = f"{WHERE}.label_template: {{name:.2f}} needs a number, and 'Alpha' is not one"
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        check_tables([_table(csv, label_template="{name:.2f}")])


@pytest.mark.parametrize("key", ["label_template", "action_url_template"])
def test_a_spec_that_formats_nothing_is_refused_at_start(tmp_path: Path, key: str) -> None:
    csv = _csv(tmp_path, "sku,name\nA1,Alpha\n")
    template = "https://example.com/{sku:.2q}" if key == "action_url_template" else "{sku:.2q}"
    message = f"{WHERE}.{key}: {{sku:.2q}}: '.2q' formats neither text nor numbers"
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        check_tables([_table(csv, label_column="name", **{key: template})])


@pytest.mark.parametrize(
    ("template", "value", "message"),
    [
        ("{n:d}", "1.5", "{n:d} needs a whole number, and '1.5' is not one"),
        ("{n:c}", "99999999", "{n:c}: '99999999' is out of range"),
        # a billion digits: refused, not written
        ("{n:.2f}", "1e999999999", "{n:.2f} needs a number, and '1e999999999' is not one"),
        ("{n:.2f}", "nan", "{n:.2f} needs a number, and 'nan' is not one"),
    ],
)
def test_a_value_a_number_spec_cannot_format_is_named(
    template: str, value: str, message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        render(template, {"n": value})


def test_a_spreadsheet_exponent_is_a_number() -> None:
    assert render("{n:,.2f}", {"n": "1.5E+03"}) == "1,500.00"


def test_an_action_url_may_format_a_number(tmp_path: Path) -> None:
    csv = _csv(tmp_path, "sku,name,page\nA1,Alpha,7\n")
    table = _table(csv, label_column="name", action_url_template="https://example.com/p/{page:03d}")
    [record] = read_records(table, WHERE)
    assert record.action is not None and record.action.url == "https://example.com/p/007"


# -- blank values in labels --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "row", "label"),
    [
        ("{name} ({page})", {"name": "No page", "page": ""}, "No page"),
        ("{name} (page {page})", {"name": "Beta", "page": ""}, "Beta"),
        ("{name} (page {page})", {"name": "Beta", "page": "3"}, "Beta (page 3)"),
        ("{name} [{sku}]", {"name": "Beta", "sku": ""}, "Beta"),
        ("{name} – {city}", {"name": "Beta", "city": ""}, "Beta"),
        ("{sku}: {name}", {"sku": "", "name": "Beta"}, "Beta"),
        ("{name}, {city}, {country}", {"name": "A", "city": "", "country": "FR"}, "A, FR"),
        ("{a} - {b}, {c} - {d}", {"a": "A", "b": "", "c": "", "d": "D"}, "A - D"),
        ("{name} ({sku}, {tier})", {"name": "A", "sku": "", "tier": "team"}, "A (team)"),
        ("{name} ({sku}, {tier})", {"name": "A", "sku": "S", "tier": ""}, "A (S)"),
        ("{first} {middle} {last}", {"first": "Ann", "middle": "", "last": "Lee"}, "Ann Lee"),
        ("{name} ({a} [{b}])", {"name": "N", "a": "", "b": ""}, "N"),
        ("{name} ({price:.2f})", {"name": "A", "price": ""}, "A"),
        ("{name[0]}. {last}", {"name": "", "last": "Lee"}, "Lee"),
        # brackets and separators inside a value are the value's own
        ("{name} ({sku})", {"name": "Team (annual) -", "sku": ""}, "Team (annual) -"),
        ("{name} ({sku})", {"name": "", "sku": ""}, ""),
    ],
)
def test_a_blank_value_leaves_no_empty_brackets_or_dangling_separators(
    template: str, row: dict[str, str], label: str
) -> None:
    assert render_label(template, row) == label


def test_a_label_with_a_blank_field_reads_well_in_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    csv = _csv(tmp_path, "sku,name,page\nA1,Has page,12\nB2,No page,\n,,\nC3,,\n")
    table = _table(csv, label_template="{name} ({page})", columns=["page"])
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        records = read_records(table, WHERE)
    # every field blank: the default label, as for a blank label column
    assert [r.label for r in records] == ["Has page (12)", "No page", "t C3"]
    assert records[1].text == "No page. page: "
    assert not _warnings(caplog)


# -- action URLs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "url"),
    [
        ("https://example.com/p/{sku:>4}", "https://example.com/p/%20%20A1"),
        ("https://example.com/p/{sku!r}", "https://example.com/p/%27A1%27"),
        ("https://example.com/p/{price:,}", "https://example.com/p/1%2C299"),
    ],
)
def test_an_action_url_quotes_a_value_after_its_format_spec(
    tmp_path: Path, template: str, url: str
) -> None:
    csv = _csv(tmp_path, "sku,name,price\nA1,Alpha,1299\n")
    [record] = read_records(_table(csv, label_column="name", action_url_template=template), WHERE)
    assert record.action is not None and record.action.url == url


def test_an_unknown_conversion_is_refused_at_start(tmp_path: Path) -> None:
    csv = _csv(tmp_path, "sku,name\nA1,Alpha\n")
    message = f"{WHERE}.label_template: {{name!x}}: a conversion is !s, !r or !a"
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        check_tables([_table(csv, label_template="{name!x}")])
