"""The rows of a record table: their values, the SQLite reader, and the table settings
checked before any row is read (unique names, audiences, the header's columns).

Each row is a dict of column name -> text. Values are cleaned as they are read: spaces around
them trimmed, line breaks written ``\\n``, other control characters removed. Blank cells
past a CSV header's last column are dropped; a row with a value there is a :class:`WideRow`,
which is warned about and not served. A SQLite NULL is ``""``, a BLOB is read as UTF-8 text,
and text that is not valid UTF-8 keeps its row (U+FFFD for the bad bytes). CSV files are read
by :mod:`bot.knowledge.record_csv`, either kind through :mod:`bot.knowledge.record_tables`.

Anything that would make a table serve wrong answers is a ConfigError naming the config key,
raised when ``citecast serve`` or ``ask`` start: a file that cannot be read, a missing table,
and a column the config names that the header lacks or has twice (the message lists the
header's columns, and says when the file is not comma-separated or is JSON). So is a table
over its ``max_bytes`` or ``max_rows`` (:mod:`bot.knowledge.record_size`), and a
``column_labels`` label that cannot serve (:mod:`bot.knowledge.record_labels`).
"""

from __future__ import annotations

import re
import sqlite3
import stat
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from contextlib import closing
from pathlib import Path

from bot.bidi_controls import BIDI_CONTROLS
from bot.config import RecordTable
from bot.errors import ConfigError, ValidationError
from bot.knowledge.audience import document_audience
from bot.knowledge.read_only import connect_read_only
from bot.knowledge.record_labels import check_labels
from bot.knowledge.record_templates import check_action_template, template_columns

Row = dict[str, str]


class WideRow(dict[str, str]):
    """A CSV row with values past its header's last column: the extra cells are not in it, and
    an unquoted comma in a value (``Pump, large``) may have moved its later values one column
    on. ``cells`` is how many cells it has (up to its last non-blank one), ``header`` how many
    the header has. It is a row like any other to what only carries rows (the size limits);
    :mod:`bot.knowledge.record_sources` warns about it and does not serve it."""

    def __init__(self, row: Row, cells: int, header: int) -> None:
        super().__init__(row)
        self.cells = cells
        self.header = header


# A value longer than this is cut (with a warning, see records.py): a value fits one Slack
# context element (2,000 characters) and one Discord message, and a 5 MB cell no longer goes
# into every answer, tool result and citation that shows its record.
MAX_VALUE_CHARS = 2000

# Besides C0/C1 controls, the bidi embeddings, overrides and isolates (U+202A-U+202E,
# U+2066-U+2069): one left open in a value ("\u202e91$" shows as "$19") turns around the rest
# of the answer line it is written into, wherever it is shown. Marks (U+200E, U+200F) and joiners
# stay: they only shape the text they are in.
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f" + BIDI_CONTROLS + "]")
_SHOWN_COLUMNS = 20


def clean(value: str) -> str:
    """A cell's text: trimmed, line breaks as ``\\n``, no other control characters (nor bidi
    overrides)."""
    if value.isprintable():
        return value.strip()
    text = value.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROLS.sub("", text).strip()


def shortened(row: Row, columns: Collection[str]) -> tuple[Row, list[str]]:
    """``row`` with each value of ``columns`` cut to :data:`MAX_VALUE_CHARS` characters (the
    last an ellipsis, after a whole word when one ends near the cut), and the columns cut."""
    cut = [column for column in columns if len(row.get(column, "")) > MAX_VALUE_CHARS]
    if not cut:
        return row, cut
    row = dict(row)
    for column in cut:
        text = row[column][: MAX_VALUE_CHARS - 1]
        space = text.rfind(" ")
        keep = text[:space] if space >= len(text) * 2 // 3 else text
        row[column] = keep.rstrip() + "\u2026"
    return row, cut


def used_columns(table: RecordTable, header: Collection[str], where: str) -> list[str]:
    """The columns of ``header`` a record of ``table`` shows or is made from (id, label,
    templates): only their values are cut to length (:func:`shortened`)."""
    used = [*table.columns, table.id_column or "", table.label_column or ""]
    for key in ("label_template", "action_url_template"):
        template = getattr(table, key)
        if template:
            used += template_columns(template, header, f"{where}.{key}")
    return [column for column in dict.fromkeys(used) if column in header]


def one_line(value: str) -> str:
    """``value`` with every run of whitespace (line breaks included) one space."""
    return " ".join(value.split())


def table_key(position: int) -> str:
    """The config key of the table at ``position`` in ``index.records``: ``index.records.0``,
    dotted as config.yaml's other errors name keys (``index.records.0.bogus: unknown key``)."""
    return f"index.records.{position}"


def check_names(tables: Sequence[RecordTable]) -> None:
    """Every table has a name without ``/``, and no other table has it (a second ``products``
    would replace the first, whatever its audience)."""
    seen: dict[str, int] = {}
    for position, table in enumerate(tables):
        where = f"{table_key(position)}.name"
        if not table.name.strip():
            raise ConfigError(f"{where}: empty; name the table (the model looks it up by name)")
        if "/" in table.name:  # table "a/b", row "c" and table "a", row "b/c" would be one source
            raise ConfigError(
                f"{where}: {table.name!r} has a '/', which ends a table's name in a "
                "citation id (products/CC-TEAM); choose a name without one"
            )
        if table.name in seen:
            raise ConfigError(
                f"{where}: {table.name!r} is already the name of {table_key(seen[table.name])}"
            )
        seen[table.name] = position


def with_audiences(tables: Sequence[RecordTable]) -> list[RecordTable]:
    """``tables`` with each ``audience`` read as a document's is (:func:`document_audience`):
    ``["staff, hr"]`` is two groups, and one that names no group (``[]``, ``[""]``) is a
    ConfigError naming the key, never a table nobody can see (nor a public one)."""
    checked: list[RecordTable] = []
    for position, table in enumerate(tables):
        try:
            groups = document_audience(table.audience, "audience")
        except ValidationError as exc:
            raise ConfigError(f"{table_key(position)}.audience: {exc}") from None
        checked.append(table.model_copy(update={"audience": list(groups)}))
    return checked


def check_header(table: RecordTable, header: Sequence[str], where: str) -> None:
    """Every column the config names is in ``header``, once; checked on the header, so an empty
    table or one whose first row happens to be fine is caught as well."""
    counts = Counter(header)
    named: list[tuple[str, str | None]] = [("columns", column) for column in table.columns]
    named += [("id_column", table.id_column), ("label_column", table.label_column)]
    named += [("column_labels", column) for column in table.column_labels]
    action: list[str] = []
    for key in ("label_template", "action_url_template"):
        template = getattr(table, key)
        if template:
            used = template_columns(template, counts, f"{where}.{key}")
            named += [(key, column) for column in used]
            action = used if key == "action_url_template" else action
    for key, column in named:
        if not column:
            continue
        if column not in counts:
            shown = [name for name in header if name]
            listed = ", ".join(shown[:_SHOWN_COLUMNS]) + (
                ", …" if len(shown) > _SHOWN_COLUMNS else ""
            )
            hint = ""
            if shown and shown[0][:1] in ("[", "{"):
                hint = "; the file is read as CSV, and JSON is not supported: save it as CSV"
            elif len(shown) == 1 and (separator := next((c for c in ";\t|" if c in shown[0]), "")):
                hint = f"; the file is read as comma-separated, not {separator!r}-separated"
            raise ConfigError(
                f"{where}.{key}: no column {column!r} in table {table.name!r} "
                f"(columns: {listed or 'none'}){hint}"
            )
        if counts[column] > 1:
            raise ConfigError(
                f"{where}.{key}: column {column!r} appears more than once in table {table.name!r}"
            )
    if table.action_url_template:
        check_action_template(table.action_url_template, action, f"{where}.action_url_template")
    check_labels(table, where)


def os_reason(exc: OSError) -> str:
    """The system's reason in words, as the CLI's other messages give it ("no such file or
    directory"), not Python's "[Errno 2] No such file or directory: '…'"."""
    reason = exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]


def check_file(path: Path, key: str) -> None:
    """A regular file we can stat (a FIFO would block the start, a folder cannot be read)."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise ConfigError(f"{key}: cannot read {path}: {os_reason(exc)}") from None
    if not stat.S_ISREG(mode):
        raise ConfigError(f"{key}: cannot read {path}: not a regular file")


# -- SQLite -------------------------------------------------------------------------------------


def _sql_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        return clean(value.decode("utf-8", "replace"))
    return clean(str(value))


def sqlite_rows(table: RecordTable, path: Path, name: str, where: str) -> Iterator[Row]:
    """The rows of the table or view ``name`` in the SQLite file at ``path``, opened read-only
    (``where`` is the table's config key), after checking its columns (:func:`check_header`)."""
    key = f"{where}.sqlite"
    check_file(path, key)
    try:
        conn = connect_read_only(path)
    except sqlite3.Error as exc:
        raise ConfigError(f"{key}: cannot read {path}: {exc}") from None
    with closing(conn):
        conn.text_factory = lambda data: data.decode("utf-8", "replace")
        try:
            found = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') "
                "AND name = ? COLLATE NOCASE",
                (name,),
            ).fetchone()
        except sqlite3.Error as exc:
            raise ConfigError(f"{key}: cannot read {path}: {exc}") from None
        if found is None:
            raise ConfigError(f"{where}.table: no table or view {name!r} in {path}")
        quoted = '"' + name.replace('"', '""') + '"'
        try:
            cursor = conn.execute(f"SELECT * FROM {quoted}")  # noqa: S608 - quoted name
            header = [str(d[0]) for d in cursor.description]
            check_header(table, header, where)
            for values in cursor:
                row: Row = {}
                for column, value in zip(header, values, strict=True):
                    if column not in row:
                        row[column] = _sql_text(value)
                yield row
        except sqlite3.Error as exc:
            raise ConfigError(f"{where}.table: cannot read {name!r} from {path}: {exc}") from None
