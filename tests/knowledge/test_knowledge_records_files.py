"""Record tables as deployers write them: CSV and SQLite quirks, and one-line errors at start.

A table that would serve wrong answers (rows silently merged, a configured column that is not
there) is refused with its config key; a bad row never loses the others.
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.record_sources import read_records
from bot.knowledge.records import RecordTables, check_tables
from bot.registry import SourceRegistry

PUBLIC = frozenset({"public"})
WHERE = "index.records.0"


def table(**fields: object) -> RecordTable:
    return RecordTable.model_validate({"name": "t", **fields})


def write(folder: Path, text: str | bytes, name: str = "t.csv") -> str:
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return str(path)


def refused(tables: list[RecordTable], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_tables(tables)


# -- CSV ----------------------------------------------------------------------------------------


def test_bom_crlf_and_quoted_line_breaks(tmp_path: Path) -> None:
    csv = write(tmp_path, '\ufeffsku,name,note\r\nA1,Alpha,"one\r\ntwo"\r\nA2,Beta,\r\n')
    records = read_records(
        table(csv=csv, id_column="sku", label_column="name", columns=["note"]), WHERE
    )
    assert [(r.id, r.label, r.columns) for r in records] == [
        ("t/A1", "Alpha", {"note": "one\ntwo"}),
        ("t/A2", "Beta", {"note": ""}),
    ]


def test_an_unclosed_quote_is_refused_instead_of_swallowing_every_later_row(
    tmp_path: Path,
) -> None:
    csv = write(tmp_path, 'sku,name\nA1,Alpha\nA2,"Beta\nA3,Gamma\nA4,Delta\n')
    refused(
        [table(csv=csv, label_column="name")],
        f"{WHERE}.csv: {csv} line 3: a quoted field is never closed",
    )


@pytest.mark.parametrize(
    "text",
    [
        'sku,name,price\nD1,Tab,5\nD2,"unterminated,6\n',
        'sku,name,price\nD1,Tab,5\nD2,"unterminated,6',
        'sku,name,price\nD1,Tab,5\nD2,"unterminated,6\n\n',
    ],
)
def test_an_unclosed_quote_on_the_last_line_is_refused(tmp_path: Path, text: str) -> None:
    """Read to the end of the file, it ran the row's later cells into one value ("name" was
    "unterminated,6", "price" blank): a wrong citation, not a swallowed row."""
    csv = write(tmp_path, text)
    refused(
        [table(csv=csv, label_column="name", columns=["name", "price"])],
        f"{WHERE}.csv: {csv} line 3: a quoted field is never closed",
    )


def test_a_closed_quote_at_the_end_of_the_file_is_fine(tmp_path: Path) -> None:
    csv = write(tmp_path, 'sku,name\nA1,"Alpha\n"')
    [record] = read_records(table(csv=csv, label_column="name"), WHERE)
    assert record.label == "Alpha"


def test_a_file_that_is_not_utf8_names_its_first_bad_line(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku,name\nA1,Cafe\nA2,Caf\xe9\n".encode("latin-1"))
    refused(
        [table(csv=csv, label_column="name")],
        f"{WHERE}.csv: cannot read {csv}: not UTF-8 text (line 3)",
    )


def test_an_empty_file_has_no_header(tmp_path: Path) -> None:
    refused([table(csv=write(tmp_path, ""))], f"{WHERE}.csv: {tmp_path / 't.csv'} is empty")


def test_a_cell_larger_than_the_csv_module_default_is_read(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku,name,note\nA1,Alpha," + "x" * 200_000 + "\nA2,Beta,short\n")
    records = read_records(table(csv=csv, label_column="name", columns=["note"]), WHERE)
    assert [r.label for r in records] == ["Alpha", "Beta"]


def test_header_names_and_values_are_trimmed_and_blank_lines_skipped(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku, name , tier\n A1 , Alpha ,team\n,,\n\nA2,Beta,free\n")
    tables = RecordTables([table(csv=csv, id_column="sku", label_column="name", columns=["tier"])])
    check_tables([table(csv=csv, id_column="sku", label_column="name", columns=["tier"])])
    found = tables.lookup("t", "", PUBLIC, limit=10)
    assert [(r.id, r.label) for r in found] == [("t/A1", "Alpha"), ("t/A2", "Beta")]


def test_a_missing_column_lists_the_columns_the_header_has(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku,Name\nA1,Alpha\n")
    refused(
        [table(csv=csv, label_column="name")],
        f"{WHERE}.label_column: no column 'name' in table 't' (columns: sku, Name)",
    )


def test_a_semicolon_separated_file_says_so(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku;name\nA1;Alpha\n")
    refused(
        [table(csv=csv, label_column="name")],
        f"{WHERE}.label_column: no column 'name' in table 't' (columns: sku;name); the file is "
        "read as comma-separated, not ';'-separated",
    )


def test_a_configured_column_the_header_names_twice_is_refused(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku,name,name\nA1,First,Second\n")
    refused(
        [table(csv=csv, label_column="name")],
        f"{WHERE}.label_column: column 'name' appears more than once in table 't'",
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"csv": "x.csv", "sqlite": "x.db", "table": "t"}, f"{WHERE}: set either csv,"),
        ({"csv": "x.csv", "table": "t"}, f"{WHERE}: set either csv,"),
        ({"sqlite": "x.db"}, f"{WHERE}.table: name the table or view to read from x.db"),
    ],
)
def test_a_table_with_two_sources_or_half_of_one_is_refused(
    fields: dict[str, object], message: str
) -> None:
    refused([table(**fields)], message)


# -- row ids ------------------------------------------------------------------------------------


def test_rows_sharing_an_id_are_distinct_sources_and_citations(tmp_path: Path) -> None:
    # A1 twice; the third row has no id (cited as t/#3), the fourth has the id "3"
    csv = write(tmp_path, "sku,name\nA1,Alpha\nA1,Beta\n,Gamma\n3,Delta\n")
    tables = RecordTables([table(csv=csv, id_column="sku", label_column="name")])
    records = tables.lookup("t", "", PUBLIC, limit=10)
    assert [r.label for r in records] == ["Alpha", "Beta", "Gamma", "Delta"]
    assert len({r.id for r in records}) == 4
    assert records[0].id == "t/A1"
    registry = SourceRegistry(PUBLIC)
    rows = registry.format_records(records)
    assert [row["cite"] for row in rows] == [1, 2, 3, 4]
    assert registry.get(2) is not None and registry.get(2).label == "Beta"  # type: ignore[union-attr]


# -- SQLite -------------------------------------------------------------------------------------


def shop(folder: Path) -> str:
    path = folder / "shop.db"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE items (id INTEGER, title TEXT, price REAL, data BLOB)")
        conn.execute("INSERT INTO items VALUES (1, 'Kettle', 9.5, CAST('steel' AS BLOB))")
        conn.execute("INSERT INTO items VALUES (2, CAST(x'4261ff64' AS TEXT), NULL, NULL)")
        conn.execute("INSERT INTO items VALUES (3, NULL, 3, NULL)")
        conn.execute("CREATE VIEW cheap AS SELECT id, title FROM items WHERE price < 5")
        conn.commit()
    return str(path)


def test_sqlite_text_that_is_not_utf8_does_not_lose_the_other_rows(tmp_path: Path) -> None:
    records = read_records(
        table(
            sqlite=shop(tmp_path),
            table="items",
            id_column="id",
            label_column="title",
            columns=["price", "data"],
        ),
        WHERE,
    )
    assert [(r.id, r.label, r.columns) for r in records] == [
        ("t/1", "Kettle", {"price": "9.5", "data": "steel"}),
        ("t/2", "Ba\ufffdd", {"price": "", "data": ""}),
        ("t/3", "t 3", {"price": "3.0", "data": ""}),  # NULL label: the table name and row id
    ]


def test_a_sqlite_view_is_a_table(tmp_path: Path) -> None:
    [record] = read_records(
        table(sqlite=shop(tmp_path), table="cheap", id_column="id", label_column="title"), WHERE
    )
    assert record.id == "t/3"


def test_a_missing_sqlite_file_or_table_names_its_key(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.db")
    refused([table(sqlite=missing, table="items")], f"{WHERE}.sqlite: cannot read {missing}")
    db = shop(tmp_path)
    refused([table(sqlite=db, table="orders")], f"{WHERE}.table: no table or view 'orders' in")
    text = write(tmp_path, "not a database at all")
    refused([table(sqlite=text, table="items")], f"{WHERE}.sqlite: cannot read {text}")
