"""Record tables a careless or hostile source could make harmful: too large to hold, a value
that walks an action URL up the site, a table with no rows."""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.record_sources import read_records
from bot.knowledge.record_templates import dot_segment
from bot.knowledge.records import check_tables

WHERE = "index.records.0"
ROWS = "sku,name\n" + "".join(f"S{i},Product {i}\n" for i in range(50))


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    return path


def _table(path: Path, **settings: object) -> RecordTable:
    table = RecordTable(name="t", csv=str(path), id_column="sku", label_column="name")
    return table.model_copy(update=settings)


# -- size ---------------------------------------------------------------------------------------


def test_a_csv_file_over_max_bytes_is_refused_by_its_size(tmp_path: Path) -> None:
    path = _csv(tmp_path, ROWS)
    size = path.stat().st_size
    table = _table(path, max_bytes=size - 1)
    message = (
        f"{WHERE}.csv: cannot serve {path}: too large: {size:,} bytes, over "
        f"{WHERE}.max_bytes ({size - 1:,}; 0 = no limit)"
    )
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_tables([table])
    assert len(read_records(_table(path, max_bytes=size), WHERE)) == 50
    assert len(read_records(_table(path, max_bytes=0), WHERE)) == 50


def test_the_default_caps() -> None:
    table = RecordTable(name="t", csv="t.csv")
    assert (table.max_bytes, table.max_rows) == (50_000_000, 200_000)


def test_a_csv_file_of_more_rows_than_max_rows_is_refused(tmp_path: Path) -> None:
    path = _csv(tmp_path, ROWS)
    message = (
        f"{WHERE}.csv: cannot serve {path}: too large: more than 49 rows, over "
        f"{WHERE}.max_rows (49; 0 = no limit)"
    )
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_tables([_table(path, max_rows=49)])
    assert len(read_records(_table(path, max_rows=50), WHERE)) == 50
    assert len(read_records(_table(path, max_rows=0), WHERE)) == 50


def _database(tmp_path: Path) -> Path:
    path = tmp_path / "t.db"
    with sqlite3.connect(path) as conn:
        # an image column nobody shows: 100,000 bytes that no record keeps
        conn.execute("CREATE TABLE products (sku TEXT, name TEXT, image BLOB)")
        rows = [(f"S{i}", f"Product {i}", b"\x89PNG" * 500) for i in range(50)]
        conn.executemany("INSERT INTO products VALUES (?, ?, ?)", rows)
        # a view that never ends: without a cap, the start would never finish
        conn.execute(
            "CREATE VIEW endless AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
            "SELECT x + 1 FROM c) SELECT x AS sku, 'Product ' || x AS name FROM c"
        )
    return path


@pytest.mark.parametrize("name", ["products", "endless"])
def test_a_sqlite_table_whose_text_is_over_max_bytes_is_refused(tmp_path: Path, name: str) -> None:
    path = _database(tmp_path)
    table = RecordTable(
        name="t", sqlite=str(path), table=name, id_column="sku", label_column="name", max_bytes=500
    )
    message = (
        f"{WHERE}.table: cannot serve {name!r} from {path}: too large: more than 500 bytes, "
        f"over {WHERE}.max_bytes (500; 0 = no limit)"
    )
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_tables([table])
    fits = table.model_copy(update={"table": "products", "max_bytes": 50_000})
    assert len(read_records(fits, WHERE)) == 50


def test_a_view_that_never_ends_stops_at_max_rows(tmp_path: Path) -> None:
    path = _database(tmp_path)
    table = RecordTable(
        name="t",
        sqlite=str(path),
        table="endless",
        id_column="sku",
        label_column="name",
        max_bytes=0,
        max_rows=100,
    )
    message = f"{WHERE}.table: cannot serve 'endless' from {path}: too large: more than 100 rows"
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_tables([table])


# -- action URLs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sku", "url"),
    [
        ("../admin", None),
        ("..", None),
        ("a/./b", None),
        # a "%" in a value is quoted itself: no browser reads "%252e" as "."
        ("%2e%2E/admin", "https://shop.example.com/p/%252e%252E/admin"),
        ("a b/c#d?e", "https://shop.example.com/p/a%20b/c%23d%3Fe"),
        ("é..x", "https://shop.example.com/p/%C3%A9..x"),
        ("v1.2", "https://shop.example.com/p/v1.2"),
    ],
)
def test_a_value_that_walks_the_path_gets_no_action(
    tmp_path: Path, sku: str, url: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    path = _csv(tmp_path, f"sku,name\nA,Alpha\n{sku},Beta\n")
    table = _table(path, action_url_template="https://shop.example.com/p/{sku}")
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        _, record = read_records(table, WHERE)
    assert (record.action.url if record.action else None) == url
    warnings = [r.getMessage() for r in caplog.records]
    if url is None:
        [warning] = warnings
        assert warning.startswith(f"{WHERE}.action_url_template: 1 of 2 rows, first row 2: ")
        assert "has a '.' or '..' path segment" in warning
        assert warning.endswith("(such rows have no action)")
    else:
        assert warnings == []


def test_a_table_whose_every_value_walks_the_path_still_serves(tmp_path: Path) -> None:
    path = _csv(tmp_path, "sku,name\n..,Alpha\n../x,Beta\n")
    table = _table(path, action_url_template="https://shop.example.com/p/{sku}")
    records = check_tables([table])
    assert records is not None
    assert [r.action for r in read_records(table, WHERE)] == [None, None]


def test_dot_segments_matter_in_a_web_path_only() -> None:
    assert dot_segment("https://example.com/a/../b")
    assert dot_segment("http://example.com/a/%2E")
    assert not dot_segment("https://example.com/buy?sku=../x#../y")
    assert not dot_segment("mailto:..@example.com")
    assert not dot_segment("https://example.com/a..b/.c/")


# -- no rows ------------------------------------------------------------------------------------


def test_a_table_with_a_header_alone_serves_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = _table(_csv(tmp_path, "\ufeffsku,name\r\n"))
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        tables = check_tables([table])
    assert tables is not None
    assert tables.lookup("t", "anything", {"public"}) == []
    assert [r.getMessage() for r in caplog.records] == [f"{WHERE}: table 't' has no rows"]


# -- format specs -------------------------------------------------------------------------------


def test_a_width_taken_from_a_cell_cannot_blow_up_memory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # without the cap, row B's label is a string of 2,000,000,000 characters (~8 GB)
    path = _csv(tmp_path, "sku,name,w\nA,Alpha,8\nB,Beta,2000000000\n")
    table = _table(path, label_column=None, label_template="{name:>{w}}")
    with caplog.at_level(logging.WARNING, logger="bot.knowledge.records"):
        records = read_records(table, WHERE)
    assert [r.label for r in records] == ["Alpha", "t B"]
    [warning] = [r.getMessage() for r in caplog.records]
    assert "{name:>2000000000}: a width or precision over 2,000 is refused" in warning


@pytest.mark.parametrize("spec", [">999999999", ".99999f", "0>2001"])
def test_a_template_asking_for_a_huge_width_is_refused_at_start(tmp_path: Path, spec: str) -> None:
    path = _csv(tmp_path, "sku,name\nA,1\n")
    table = _table(path, label_column=None, label_template=f"{{name:{spec}}}")
    message = f"{WHERE}.label_template: {{name:{spec}}}: a width or precision over 2,000"
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_tables([table])
    fine = table.model_copy(update={"label_template": "{name:0>12}"})
    assert [r.label for r in read_records(fine, WHERE)] == ["000000000001"]


# -- control text -------------------------------------------------------------------------------


def test_bidi_overrides_are_removed_and_marks_kept(tmp_path: Path) -> None:
    # "\u202e91$" reads "$19", and the override runs on into the rest of the answer's line
    text = (
        "sku,name,price\n"
        "A,\u2067Alpha\u2069 \u202dplan\u202c,\u202e91$\n"
        "B,\u05d1\u200f (beta),\u200d9\n"
    )
    table = _table(_csv(tmp_path, text), columns=["price"])
    first, second = read_records(table, WHERE)
    assert (first.label, first.columns) == ("Alpha plan", {"price": "91$"})
    assert (second.label, second.columns) == ("\u05d1\u200f (beta)", {"price": "\u200d9"})


def test_sqlite_values_lose_bidi_overrides_too(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE p (sku TEXT, name TEXT)")
        conn.execute("INSERT INTO p VALUES ('A', ?)", ("\u202eesolc",))
    table = RecordTable(name="t", sqlite=str(path), table="p", id_column="sku", label_column="name")
    assert [r.label for r in read_records(table, WHERE)] == ["esolc"]
