"""The rows of a record table, from its CSV file or its SQLite table or view, within the
table's ``max_bytes`` and ``max_rows`` (:mod:`bot.knowledge.record_size`)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.record_csv import csv_rows
from bot.knowledge.record_rows import Row, sqlite_rows, used_columns
from bot.knowledge.record_size import within


def table_rows(table: RecordTable, where: str) -> Iterator[Row]:
    """The rows of ``table`` (``where`` is its config key, ``index.records.0``), after checking
    that its header has every column the config names."""
    if table.csv and (table.sqlite or table.table):
        raise ConfigError(f"{where}: set either csv, or sqlite and table, not both")
    if table.csv:
        what = f"{where}.csv: cannot serve {table.csv}"
        rows = csv_rows(table, Path(table.csv), where)
        yield from within(rows, (table.max_bytes, table.max_rows), what, where)
    elif table.sqlite:
        if not table.table:
            raise ConfigError(f"{where}.table: name the table or view to read from {table.sqlite}")
        rows = sqlite_rows(table, Path(table.sqlite), table.table, where)
        what = f"{where}.table: cannot serve {table.table!r} from {table.sqlite}"
        # only the columns records keep count: an unshown column of images costs no memory
        kept = partial(used_columns, table, where=where)
        yield from within(rows, (table.max_bytes, table.max_rows), what, where, kept)
    else:
        raise ConfigError(f"{where}: set either csv, or sqlite and table")
