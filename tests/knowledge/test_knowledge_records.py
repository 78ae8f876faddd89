"""Record tables: only configured columns, labels, actions, CSV and SQLite sources."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.errors import ConfigError, KnowledgeIndexError
from bot.knowledge.records import RecordTables, check_tables
from tests.knowledge.conftest import EXAMPLES

PUBLIC = frozenset({"public"})


def products(**overrides: object) -> RecordTable:
    fields: dict[str, object] = {
        "name": "products",
        "csv": str(EXAMPLES / "products.csv"),
        "id_column": "sku",
        "label_template": "{name} ({sku})",
        "columns": ["tier", "price_usd", "support"],
        "action_url_template": "https://example.com/buy/{sku}",
        "action_label": "Buy",
    }
    fields.update(overrides)
    return RecordTable.model_validate(fields)


def test_csv_records_keep_only_configured_columns() -> None:
    tables = RecordTables([products()])
    [team, *_] = tables.lookup("products", "team plan price", PUBLIC)
    assert team.id == "products/CC-TEAM"
    assert team.kind == "record"
    assert team.label == "citecast Team (CC-TEAM)"
    assert team.columns == {
        "tier": "team",
        "price_usd": "19",
        "support": "email within 2 business days",
    }
    assert team.action is not None and team.action.url == "https://example.com/buy/CC-TEAM"
    assert team.action.label == "Buy"
    everything = repr(tables.lookup("products", "citecast support", PUBLIC, limit=10))
    assert "internal_cost" not in everything and "seats" not in everything


def test_unlisted_columns_are_not_searchable() -> None:
    tables = RecordTables([products(columns=["tier"])])
    assert tables.lookup("products", "phone within 1 hour", PUBLIC) == []


def test_label_column_and_row_numbers() -> None:
    tables = RecordTables([products(label_template=None, label_column="name", id_column=None)])
    [enterprise] = tables.lookup("products", "enterprise", PUBLIC, limit=1)
    assert enterprise.label == "citecast Enterprise"
    assert enterprise.id == "products/4"


def test_action_url_values_are_quoted(tmp_path: Path) -> None:
    csv_path = tmp_path / "t.csv"
    csv_path.write_text("sku,name\nA B/1,Odd thing\n")
    table = products(csv=str(csv_path), columns=["name"], label_template="{name}")
    [odd] = RecordTables([table]).lookup("products", "odd", PUBLIC)
    assert odd.action is not None and odd.action.url == "https://example.com/buy/A%20B/1"


def test_sqlite_table(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE items (code TEXT, title TEXT, stock INTEGER, secret TEXT)")
        conn.execute("INSERT INTO items VALUES ('X1', 'Blue kettle', 3, 'nope')")
        conn.execute("INSERT INTO items VALUES ('X2', 'Red kettle', NULL, 'nope')")
    table = RecordTable(
        name="items",
        sqlite=str(db),
        table="items",
        id_column="code",
        label_column="title",
        columns=["stock"],
    )
    found = RecordTables([table]).lookup("items", "red kettle", PUBLIC)
    assert next((s.id, s.label, s.columns) for s in found) == (
        "items/X2",
        "Red kettle",
        {"stock": ""},
    )
    assert all("nope" not in repr(s) for s in found)


def test_table_audience_hides_records_from_other_viewers() -> None:
    tables = RecordTables([products(audience=["staff"])])
    # to a viewer outside its audience the table does not exist (not "no match": that would
    # confirm the name)
    with pytest.raises(
        KnowledgeIndexError, match=r"no record table named 'products' \(tables: none\)"
    ):
        tables.lookup("products", "team", PUBLIC)
    assert tables.lookup("products", "team", frozenset({"staff"}))


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"columns": ["price", "tier"]}, "index.records.0.columns: no column 'price'"),
        ({"label_template": "{title}"}, "index.records.0.label_template: no column 'title'"),
        ({"csv": "/nonexistent/x.csv"}, "index.records.0.csv: cannot read"),
        ({"csv": None}, "index.records.0: set either csv, or sqlite and table"),
    ],
)
def test_bad_table_config_names_the_key(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        RecordTables([products(**overrides)]).lookup("products", "x", PUBLIC)


def test_unknown_table_lists_the_known_ones() -> None:
    with pytest.raises(KnowledgeIndexError, match=r"no record table named 'orders'.*products"):
        RecordTables([products()]).lookup("orders", "x", PUBLIC)


def test_distinctive_terms_ignore_words_most_labels_share() -> None:
    tables = RecordTables([products()])
    assert tables.distinctive_terms("products", ["citecast", "team"]) == {"team"}
    assert tables.distinctive_terms("products", ["phone", "within"]) == {"phone"}


def test_check_tables_accepts_readable_tables() -> None:
    check_tables([products(), products(name="again", label_template=None, label_column="name")])


def header_only_csv(folder: Path) -> dict[str, object]:
    (folder / "empty.csv").write_text("sku,name\n")
    return {"csv": str(folder / "empty.csv")}


def header_only_sqlite(folder: Path) -> dict[str, object]:
    with closing(sqlite3.connect(folder / "shop.db")) as conn:
        conn.execute("CREATE TABLE items (code TEXT, title TEXT)")
    return {"sqlite": str(folder / "shop.db"), "table": "items"}


def one_row_csv(folder: Path) -> dict[str, object]:
    (folder / "one.csv").write_text("sku,name\nA1,One\n")
    return {"csv": str(folder / "one.csv")}


# Tables without rows: the header alone must show that a configured column is missing.
@pytest.mark.parametrize(
    ("source", "table", "message"),
    [
        (header_only_csv, {"csv": "/nonexistent/x.csv"}, ".1.csv: cannot read /nonexistent/x.csv"),
        (header_only_csv, {"columns": ["price"]}, ".1.columns: no column 'price' in table 't'"),
        (header_only_csv, {"id_column": "code"}, ".1.id_column: no column 'code'"),
        (header_only_csv, {"label_column": "title"}, ".1.label_column: no column 'title'"),
        (header_only_csv, {"action_url_template": "/p/{slug}"}, ".1.action_url_template: no"),
        (header_only_sqlite, {"columns": ["stock"]}, ".1.columns: no column 'stock'"),
        (one_row_csv, {"label_template": "{sku:.2f}"}, ".1.label_template: {sku:.2f} needs a"),
    ],
)
def test_check_tables_names_the_key_of_a_table_that_cannot_serve(
    tmp_path: Path,
    source: Callable[[Path], dict[str, object]],
    table: dict[str, object],
    message: str,
) -> None:
    fields = {"name": "t", **source(tmp_path), **table}
    with pytest.raises(ConfigError, match=re.escape(f"index.records{message}")):
        check_tables([products(), RecordTable.model_validate(fields)])
