"""The size caps of a record table: ``index.records.N.max_bytes`` and ``max_rows`` (0 = no
limit).

Every row of a table is held in memory with its search index (a 55 MB CSV took 22 s to start
and ~780 MB; 500,000 rows of a few bytes each, 4 MB, took 23 s and ~540 MB), so a table over
either cap is refused at start, a ConfigError naming the key, as ``index.max_file_bytes``
refuses a document: a CSV file by its size, before a byte of it is read; a SQLite table, and a
CSV file that grows while it is read, by the text of the rows read so far, counted as a CSV
file would hold it (each value's UTF-8 bytes and one separator); any table by its rows, as
they are read (a SQLite view may never end). Of a SQLite table only the columns its records
keep count (shown, id, label, templates): a column of product images nobody shows costs no
memory, and must not make the table refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from bot.errors import ConfigError

Row = dict[str, str]


def too_large(size: str, limit: int, where: str, key: str = "max_bytes") -> str:
    """The reason a table of ``size`` ("2,048 bytes") cannot serve; ``where`` is its key."""
    return f"too large: {size}, over {where}.{key} ({limit:,}; 0 = no limit)"


def check_size(size: int, limit: int, what: str, where: str) -> None:
    """Refuse a CSV file of ``size`` bytes over ``limit``; ``what`` is ``key: file``."""
    if limit and size > limit:
        raise ConfigError(f"{what}: {too_large(f'{size:,} bytes', limit, where)}")


def within(
    rows: Iterable[Row],
    limits: tuple[int, int],
    what: str,
    where: str,
    kept: Callable[[Row], Sequence[str]] | None = None,
) -> Iterator[Row]:
    """``rows``, stopped with a ConfigError as soon as their text passes ``limits[0]`` bytes
    or they are more than ``limits[1]`` rows (0: no limit).

    ``kept`` gives, from the first row, the columns that count (default: all of them).
    """
    max_bytes, max_rows = limits
    total = 0
    columns: Sequence[str] | None = None
    for number, row in enumerate(rows, start=1):
        if max_rows and number > max_rows:
            size = f"more than {max_rows:,} rows"
            raise ConfigError(f"{what}: {too_large(size, max_rows, where, 'max_rows')}")
        if max_bytes:
            if columns is None:
                columns = kept(row) if kept else list(row)
            total += sum(len(row.get(c, "").encode("utf-8", "replace")) + 1 for c in columns)
            if total > max_bytes:
                size = f"more than {max_bytes:,} bytes"
                raise ConfigError(f"{what}: {too_large(size, max_bytes, where)}")
        yield row
