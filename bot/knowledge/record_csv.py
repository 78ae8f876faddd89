"""A record table's CSV file, read row by row as :mod:`bot.knowledge.record_rows` describes.

A header's names are trimmed (``sku, name`` names ``name``), and rows whose cells are all blank
(the ``,,,`` lines spreadsheets leave) are skipped, above the header as well as below it. A file
that is not UTF-8 (with its first bad line) or is empty is a ConfigError, and so is a quoted
field that is never closed, wherever it opens: the csv module reads it to the end of the file,
so it would swallow every later row into one cell, or, on the last line, run that row's later
cells into one value and leave its other columns blank.
"""

from __future__ import annotations

import csv
import itertools
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.record_rows import Row, WideRow, check_file, check_header, clean, os_reason
from bot.knowledge.record_size import check_size

# The csv module refuses a cell over 128 KiB by default; a long description is a fine value.
_FIELD_LIMIT = 1 << 30


def _unclosed(lines: Sequence[str]) -> bool:
    """True when the csv text ``lines`` ends inside a quoted field (the csv module's own rules,
    non-strict: after a closing quote, other text joins the field)."""
    quoted = after_quote = False
    at_start = True  # at the start of a field
    for line in lines:
        for char in line:
            if quoted:
                if char == '"':
                    quoted, after_quote = False, True
                continue
            if char == '"' and (at_start or after_quote):
                quoted, after_quote, at_start = True, False, False
                continue
            at_start = char in ",\r\n"
            after_quote = False
    return quoted


def csv_rows(table: RecordTable, path: Path, where: str) -> Iterator[Row]:
    """The rows of ``table``'s CSV file at ``path`` (``where`` is its config key), after
    checking its header (:func:`bot.knowledge.record_rows.check_header`)."""
    key = f"{where}.csv"
    check_file(path, key)
    if csv.field_size_limit() < _FIELD_LIMIT:
        csv.field_size_limit(_FIELD_LIMIT)
    reader = None
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            # by its size, before a byte is read (see bot.knowledge.record_size)
            size = os.fstat(handle.fileno()).st_size
            check_size(size, table.max_bytes, f"{key}: cannot serve {path}", where)
            reader = csv.reader(handle)
            header = next(reader, None)
            # blank lines (or ",,," ones) above the header are skipped like those below it
            while header is not None and not any(clean(cell) for cell in header):
                header = next(reader, None)
            if header is None:
                raise ConfigError(f"{key}: {path} is empty (no header row)")
            if reader.line_num > 1 and _unclosed(_lines(path, 0, reader.line_num)):
                raise ConfigError(_unclosed_message(key, path, 1))
            names = [clean(name) for name in header]
            check_header(table, names, where)
            before, end = 0, reader.line_num  # the last row read: the lines it spans
            for cells in reader:
                before, end = end, reader.line_num
                values = [clean(cell) for cell in cells]
                if not any(values):
                    continue
                if len(values) < len(names):  # a short row: its missing cells are blank
                    values += [""] * (len(names) - len(values))
                # extra cells past the header are dropped, and so is a column without a name
                # (a configured column named twice was refused on the header); blank extra
                # cells are the trailing commas spreadsheets write, anything else is a WideRow
                row = dict(zip(names, values[: len(names)], strict=True))
                row.pop("", None)
                extra = values[len(names) :]
                if any(extra):
                    width = len(values) - next(i for i, v in enumerate(reversed(extra)) if v)
                    yield WideRow(row, width, len(names))
                else:
                    yield row
        # Only the last row can hold an unclosed quote: it takes in the rest of the file, so
        # it swallowed the later rows, or (on the last line) ran its later cells into one.
        if _unclosed(_lines(path, before, end)):
            raise ConfigError(_unclosed_message(key, path, before + 1))
    except OSError as exc:
        raise ConfigError(f"{key}: cannot read {path}: {os_reason(exc)}") from None
    except UnicodeDecodeError:
        line = _first_bad_line(path)
        where_bad = f" (line {line})" if line else ""
        raise ConfigError(
            f"{key}: cannot read {path}: not UTF-8 text{where_bad}; save it as UTF-8 "
            "(in Excel: CSV UTF-8)"
        ) from None
    except csv.Error as exc:
        line_num = f"line {reader.line_num}: " if reader is not None else ""
        raise ConfigError(f"{key}: cannot read {path}: {line_num}{exc}") from None


def _lines(path: Path, skip: int, stop: int) -> list[str]:
    """Lines ``skip + 1`` to ``stop`` of ``path``, split as the csv reader saw them."""
    with path.open(newline="", encoding="utf-8-sig") as handle:
        return list(itertools.islice(handle, skip, stop))


def _unclosed_message(key: str, path: Path, line: int) -> str:
    return (
        f'{key}: {path} line {line}: a quoted field is never closed (a " without its '
        "closing quote), so every later row would be read into it"
    )


def _first_bad_line(path: Path) -> int | None:
    """The 1-based number of the first line of ``path`` that is not UTF-8."""
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError:
                    return number
    except OSError:
        return None
    return None
