"""Record tables (CSV files or SQLite tables named in ``index.records``) searchable by the tools.

Only the configured ``columns`` (plus the label) are kept from each row, so a column that is not
listed (an internal cost, say) can never reach the model or a citation. Each table is loaded once,
on first use, into an in-memory FTS5 table over the label and the kept columns.

A record becomes a Source with ``kind="record"``, ``id`` ``"<table>/<row id>"`` (the
``id_column`` value, else the 1-based row number), ``label`` (``label_column`` or
``label_template`` such as ``{name} ({sku})``, which may use any column of the row), ``columns``
and ``action`` (``action_url_template`` with URL-quoted row values).
"""

from __future__ import annotations

import csv
import math
import re
import sqlite3
import string
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from bot.config import RecordTable
from bot.errors import ConfigError, KnowledgeIndexError
from bot.knowledge.audience import viewer_audience
from bot.knowledge.terms import STOP_WORDS, fts_query, stem, words
from bot.models import RecordAction, Source


@dataclass(frozen=True)
class TableSummary:
    """What the assistant is told about one record table: the columns it may show and why
    anyone would ask about it (the configured ``description``, possibly empty)."""

    columns: tuple[str, ...]
    description: str = ""


def _template_fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def _rows(table: RecordTable, where: str) -> Iterator[dict[str, str]]:
    """The table's rows, after checking that its header has every column the config names."""
    if table.csv:
        path = Path(table.csv)
        try:
            with path.open(newline="", encoding="utf-8-sig") as handle:
                reader = csv.DictReader(handle)
                _check_columns(table, [name for name in reader.fieldnames or () if name], where)
                for row in reader:
                    yield {k: "" if v is None else str(v) for k, v in row.items() if k}
        except OSError as exc:
            raise ConfigError(f"{where}.csv: cannot read {path}: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, csv.Error) as exc:
            raise ConfigError(f"{where}.csv: cannot read {path}: {exc}") from None
        return
    if table.sqlite and table.table:
        try:
            uri = Path(table.sqlite).resolve().as_uri() + "?mode=ro"
            with closing(sqlite3.connect(uri, uri=True)) as conn:
                conn.row_factory = sqlite3.Row
                quoted = '"' + table.table.replace('"', '""') + '"'
                cursor = conn.execute(f"SELECT * FROM {quoted}")  # noqa: S608 - quoted name
                _check_columns(table, [d[0] for d in cursor.description], where)
                for row in cursor:
                    yield {k: "" if row[k] is None else str(row[k]) for k in row.keys()}  # noqa: SIM118
        except sqlite3.Error as exc:
            raise ConfigError(f"{where}: cannot read table {table.table!r}: {exc}") from None
        return
    raise ConfigError(f"{where}: set either csv, or sqlite and table")


def _check_columns(table: RecordTable, header: Sequence[str], where: str) -> None:
    """Every column the config names exists: checked on the header, so an empty table or one
    whose first row happens to be fine is caught as well."""
    present = set(header)
    named: list[tuple[str, str | None]] = [("columns", column) for column in table.columns]
    named += [("id_column", table.id_column), ("label_column", table.label_column)]
    for key in ("label_template", "action_url_template"):
        template = getattr(table, key)
        # "{name[0]}" and "{name.attr}" use the column "name"
        named += [
            (key, re.split(r"[.\[]", field, maxsplit=1)[0])
            for field in _template_fields(template or "")
        ]
    for key, column in named:
        if column and column not in present:
            raise ConfigError(f"{where}.{key}: no column {column!r} in table {table.name!r}")


def read_records(table: RecordTable, where: str) -> list[Source]:
    """Every record of ``table`` (``where`` is its config key, ``index.records[i]``)."""
    return [_record(table, row, n, where) for n, row in enumerate(_rows(table, where), start=1)]


def check_tables(tables: Sequence[RecordTable]) -> None:
    """Read every configured table as its first lookup will; ConfigError names the key.

    ``citecast serve`` and ``ask`` call it at start: tables are otherwise read on first use,
    inside a tool call, where a missing file or column failed every question instead of
    stopping the command with the reason.
    """
    for position, table in enumerate(tables):
        read_records(table, f"index.records[{position}]")


class RecordTables:
    """The record tables of ``index.records``, searched with FTS5 BM25."""

    def __init__(self, tables: Sequence[RecordTable]) -> None:
        self._tables = {t.name: t for t in tables}
        self._order = [t.name for t in tables]
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._lock = threading.Lock()
        self._records: dict[str, list[Source]] = {}

    @property
    def names(self) -> list[str]:
        """The configured table names, in config order."""
        return list(self._order)

    def visible(self, audience: frozenset[str] | set[str]) -> list[str]:
        """The names of the tables a viewer in ``audience`` may see, in config order."""
        audience = viewer_audience(audience)
        return [
            name
            for name in self._order
            if any(group in audience for group in self._tables[name].audience)
        ]

    def describe(self, audience: frozenset[str] | set[str]) -> dict[str, TableSummary]:
        """Table name -> its shown columns and description (for the tool description), for the
        tables a viewer in ``audience`` may see: a table's name and description say what it
        holds, which a viewer outside its audience must not learn."""
        tables = [self._tables[name] for name in self.visible(audience)]
        return {t.name: TableSummary(tuple(t.columns), t.description) for t in tables}

    def topic_terms(self, name: str) -> frozenset[str]:
        """Stems of the table's name, shown column names and description: what a question
        about the whole table ("Which plans are there?") says, unlike one record's words."""
        table = self._tables[name]
        text = " ".join([table.name, *table.columns, table.description]).replace("_", " ")
        return frozenset(stem(w) for w in words(text) if w not in STOP_WORDS)

    def _load(self, name: str) -> list[Source]:
        loaded = self._records.get(name)
        if loaded is not None:
            return loaded
        table = self._tables[name]
        where = f"index.records[{self._order.index(name)}]"
        records = read_records(table, where)
        fts = f"records_{self._order.index(name)}"
        self._db.execute(f"CREATE VIRTUAL TABLE {fts} USING fts5(label, body, tokenize='porter')")
        self._db.executemany(
            f"INSERT INTO {fts}(rowid, label, body) VALUES (?, ?, ?)",  # noqa: S608
            [
                (i, r.label or "", " ".join((r.columns or {}).values()))
                for i, r in enumerate(records)
            ],
        )
        self._records[name] = records
        return records

    def distinctive_terms(self, name: str, terms: Sequence[str]) -> frozenset[str]:
        """Stems of ``terms`` found in some but at most half of the table's records.

        A word every record shares (the product family name, say) says nothing about which
        record a question is about. Labels and the shown columns' values count.
        """
        return frozenset(self.distinctive_weights(name, terms))

    def distinctive_weights(self, name: str, terms: Sequence[str]) -> dict[str, float]:
        """Each distinctive stem of ``terms`` (see :meth:`distinctive_terms`) and its weight.

        The weight is ``log(1 + records / records containing it)``: a word only one record has
        says more about which record is meant than a word two records share.
        """
        with self._lock:
            records = self._load(name)
        bags = [record_terms(r) for r in records]
        counts = {t: sum(t in bag for bag in bags) for t in {stem(t) for t in terms}}
        return {
            t: math.log(1 + len(bags) / n)
            for t, n in counts.items()
            if n > 0 and n * 2 <= max(len(bags), 2)
        }

    def lookup(
        self, name: str, query: str, audience: frozenset[str] | set[str], limit: int = 5
    ) -> list[Source]:
        """The best ``limit`` records of table ``name`` for ``query`` that the viewer may see.

        The viewer always counts as ``public`` as well as their groups (:func:`viewer_audience`).
        """
        audience = viewer_audience(audience)
        if name not in self._tables:
            # only the tables this viewer may see: the message reaches the model
            known = ", ".join(self.visible(audience)) or "none"
            raise KnowledgeIndexError(f"no record table named {name!r} (tables: {known})")
        with self._lock:
            records = self._load(name)
            if not any(group in audience for group in self._tables[name].audience):
                return []
            match = fts_query(query)
            if match is None:
                return records[:limit]
            fts = f"records_{self._order.index(name)}"
            rows = self._db.execute(
                f"SELECT rowid FROM {fts} WHERE {fts} MATCH ? ORDER BY rank LIMIT ?",  # noqa: S608
                (match, limit),
            ).fetchall()
        return [records[int(row[0])] for row in rows]


def record_terms(record: Source) -> frozenset[str]:
    """Stems of a record's label and shown column values."""
    values = " ".join([record.label or "", *(record.columns or {}).values()])
    return frozenset(stem(w) for w in words(values))


def _record(table: RecordTable, row: Mapping[str, str], number: int, where: str) -> Source:
    # the columns named in the config were checked on the header (_check_columns)
    if table.label_template:
        try:
            label = table.label_template.format_map(row)
        except (KeyError, IndexError, ValueError, AttributeError) as exc:
            raise ConfigError(f"{where}.label_template: {exc}") from None
    elif table.label_column:
        label = row[table.label_column]
    else:
        label = f"{table.name} #{number}"
    action = None
    if table.action_url_template:
        try:
            url = table.action_url_template.format_map({k: quote(v) for k, v in row.items()})
        except (KeyError, IndexError, ValueError) as exc:
            raise ConfigError(f"{where}.action_url_template: {exc}") from None
        action = RecordAction(label=table.action_label, url=url)
    row_id = row.get(table.id_column, "") if table.id_column else ""
    columns = {c: row[c] for c in table.columns}
    return Source(
        id=f"{table.name}/{row_id or number}",
        label=label,
        columns=columns,
        action=action,
        text=f"{label}. " + ". ".join(f"{k}: {v}" for k, v in columns.items()),
        audience=tuple(table.audience),
        kind="record",
    )
