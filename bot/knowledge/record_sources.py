"""Turning one record table's rows into Sources (see :mod:`bot.knowledge.records`).

Each row keeps only the configured columns (and its label), under the names people see them
under (``column_labels``, :mod:`bot.knowledge.record_labels`); its id is the ``id_column`` value
(made unique with ``#<row number>``) or, in a table without one, its row number; its label and
action come from the table's templates. A row a template cannot fill keeps its place with the
default label or without an action, and one warning per setting and reason counts such rows; a
template no row can fill is wrong, and that is a ConfigError naming it.

A row whose ``id_column`` is blank is cited as ``#<row number>`` (``products/#7``), given once
every row with an id has its own: an id a row has in the file is its citation whatever rows
without one are added above it or between, and a row without one never takes it (a row number
could be another row's id). A row with values past the header's
last column (:class:`bot.knowledge.record_rows.WideRow`: ``A1,Pump, large,10`` for
``sku,name,price``) is warned about and not served, as its values may each be a column off
(``price: large``): a record missing from the answers is safer than a wrong one. It keeps its
row number, so the rows after it keep their ids; every row being so is a ConfigError.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.record_labels import shown_names
from bot.knowledge.record_rows import (
    MAX_VALUE_CHARS,
    Row,
    WideRow,
    one_line,
    shortened,
    used_columns,
)
from bot.knowledge.record_tables import table_rows
from bot.knowledge.record_templates import dot_segment, render, render_label, template_columns
from bot.models import RecordAction, Source, is_safe_url

log = logging.getLogger(__name__)

_TEMPLATE_ERRORS = (KeyError, IndexError, ValueError, AttributeError, TypeError)
_CUT = f" (such values are cut to {MAX_VALUE_CHARS:,} characters, ending in …)"
_CONSEQUENCE = {
    "label_template": " (such rows are labelled with the table name and row id)",
    "action_url_template": " (such rows have no action)",
    "csv": _CUT,
    "sqlite": _CUT,
}
# reasons whose consequence is their own, not their setting's
_WIDE = "wide"
_REASON_CONSEQUENCE = {_WIDE: " (such rows are left out; quote a value that holds a comma)"}


def read_records(table: RecordTable, where: str) -> list[Source]:
    """Every record of ``table`` (``where`` is its config key, ``index.records.0``)."""
    return _Builder(table, where).records(table_rows(table, where))


@dataclass
class _Problem:
    """Rows of one table a setting could not be applied to for one reason: how many, and the
    first."""

    count: int = 0
    row: int = 0
    message: str = ""

    def add(self, row: int, message: str) -> None:
        self.count += 1
        if not self.message:
            self.row, self.message = row, message


@dataclass
class _Builder:
    """Turns one table's rows into Sources, tracking ids and rows the templates cannot fill."""

    table: RecordTable
    where: str
    used: set[str] = field(default_factory=set)
    # (setting, whether it is the setting's fault, reason) -> the rows it missed; a blank value
    # a template needs is the row's (a product without a page yet), never a reason to refuse.
    # By reason, so that one row's blank email does not hide another's "../admin" path.
    problems: dict[tuple[str, bool, str], _Problem] = field(default_factory=dict)
    served: int = 0
    unkeyed: int = 0  # rows whose id_column is blank, given their ids at the end
    action_columns: list[str] | None = None
    used_columns: list[str] | None = None
    shown: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.shown = shown_names(self.table)

    def _problem(
        self, key: str, row: int, message: str, *, setting: bool = True, reason: str = ""
    ) -> None:
        """Count ``row`` as missed by setting ``key``, for ``reason`` (default: ``message``,
        when it says nothing of the row's own values)."""
        self.problems.setdefault((key, setting, reason or message), _Problem()).add(row, message)

    def records(self, rows: Iterable[Row]) -> list[Source]:
        """The Sources of ``rows`` (numbered from 1), then :meth:`report`."""
        built: list[Source] = []
        unkeyed: list[tuple[int, int]] = []  # (place in built, row number) of rows without an id
        total = 0
        for total, row in enumerate(rows, start=1):
            waiting = self.unkeyed
            record = self.record(row, total)
            if record is None:
                continue
            if self.unkeyed > waiting:
                unkeyed.append((len(built), total))
            built.append(record)
        # after every row with an id has its own, so that none of them is taken
        for place, number in unkeyed:
            built[place] = replace(built[place], id=f"{self.table.name}/{self._unkeyed_id(number)}")
        self.report(total)
        return built

    def report(self, total: int) -> None:
        """A template no row could fill is wrong, and so is a header every row is wider than:
        ConfigError; otherwise one warning per setting and reason with the count of rows it
        missed and the first of them; one when there are no rows (a header alone), as every
        lookup of the table will find nothing."""
        if not total:
            log.warning("%s: table %r has no rows", self.where, self.table.name)
        missed: dict[str, int] = {}
        for (key, setting, reason), problem in self.problems.items():
            if setting and key != "id_column":
                # a row left out never met the templates
                of = total if reason == _WIDE else self.served
                missed[key] = missed.get(key, 0) + problem.count
                if missed[key] == of:
                    first = self._first(key)
                    raise ConfigError(f"{self.where}.{key}: {first.message}")
        for (key, _, reason), problem in self.problems.items():
            log.warning(
                "%s.%s: %d of %d rows, first row %d: %s%s",
                *(self.where, key, problem.count, total, problem.row, problem.message),
                _REASON_CONSEQUENCE.get(reason, _CONSEQUENCE.get(key, "")),
            )

    def _first(self, key: str) -> _Problem:
        """The problem of setting ``key`` (its own fault) that met the earliest row."""
        own = [p for (k, setting, _), p in self.problems.items() if k == key and setting]
        return min(own, key=lambda problem: problem.row)

    def _row_id(self, row: Row, number: int) -> str:
        """The row's id, or ``""`` for a row whose ``id_column`` is blank (see
        :meth:`_unkeyed_id`)."""
        table = self.table
        value = row.get(table.id_column, "") if table.id_column else str(number)
        if not value:
            return ""
        row_id = value
        if row_id in self.used:
            row_id = self._free(f"{value}#{number}")
            self._problem(
                "id_column",
                number,
                f"the id {value!r} is taken by an earlier row, so it is cited as "
                f"{table.name}/{row_id}",
                reason="taken",
            )
        self.used.add(row_id)
        return row_id

    def _unkeyed_id(self, number: int) -> str:
        """The id of row ``number``, whose ``id_column`` is blank: ``#<row number>``, which an
        id in the file could only take if it were written so (then ``#<row number>.2``)."""
        row_id = self._free(f"#{number}")
        self.used.add(row_id)
        message = f"row {number} has no id, so it is cited as {self.table.name}/{row_id}"
        self._problem("id_column", number, message, reason="no id")
        return row_id

    def _free(self, base: str) -> str:
        """``base``, or ``base.2``, ``base.3`` … when an earlier row has it."""
        row_id, extra = base, 1
        while row_id in self.used:
            extra += 1
            row_id = f"{base}.{extra}"
        return row_id

    def record(self, row: Row, number: int) -> Source | None:
        """Row ``number`` as a Source (its id ``<table>/#`` when its ``id_column`` is blank: see
        :meth:`records`), or None for a row that is not served (:class:`WideRow`)."""
        # the columns named in the config were checked on the header (check_header)
        table = self.table
        if isinstance(row, WideRow):
            message = (
                f"row {number} has {row.cells} cells, the header {row.header}: a value may "
                "hold an unquoted comma"
            )
            self._problem("csv", number, message, reason=_WIDE)
            return None
        self.served += 1
        if self.used_columns is None:
            self.used_columns = used_columns(table, row, self.where)
        cut_row, cut = shortened(row, self.used_columns)
        if cut:
            source = table.csv or f"table {table.table!r} of {table.sqlite}"
            message = f"column {cut[0]!r} of {source} holds {len(row[cut[0]]):,} characters"
            key = "csv" if table.csv else "sqlite"
            self._problem(key, number, message, setting=False, reason=f"long {cut[0]}")
        row = cut_row
        row_id = self._row_id(row, number)
        self.unkeyed += not row_id
        label = ""
        if table.label_template:
            try:
                label = one_line(render_label(table.label_template, row))
            except _TEMPLATE_ERRORS as exc:
                self._problem("label_template", number, str(exc), reason=_error_reason(exc))
        elif table.label_column:
            label = one_line(row[table.label_column])
        if not label:
            has_id = bool(table.id_column and row.get(table.id_column))
            label = f"{table.name} {row_id}" if has_id else f"{table.name} #{number}"
        # under the names people see (column_labels): the citation, the quote, the answer line
        # and the model's tool result all read them from here
        columns = {name: row[column] for column, name in self.shown.items()}
        cells = ". ".join(f"{k}: {v}" for k, v in columns.items())
        return Source(
            id=f"{table.name}/{row_id or '#'}",  # "#": its id is given at the end (records)
            label=label,
            columns=columns,
            action=self._action(row, number, cut),
            text=f"{label}. {cells}" if cells else label,
            audience=tuple(table.audience),
            kind="record",
        )

    def _action(self, row: Row, number: int, cut: list[str]) -> RecordAction | None:
        template = self.table.action_url_template
        if not template:
            return None
        # "https://example.com/buy/{sku}" without a sku is the shop's front page, and
        # "mailto:{email}" without an address opens an empty mail: a button that lies; a value
        # cut short (see shortened) links to a page that does not exist
        used = self._action_columns(template, row)
        if unfit := [column for column in used if not row[column] or column in cut]:
            why = f"is longer than {MAX_VALUE_CHARS:,} characters" if row[unfit[0]] else "is blank"
            self._problem(
                "action_url_template", number, f"column {unfit[0]!r} {why}", setting=False
            )
            return None
        try:
            url = render(template, row, url=True)
        except _TEMPLATE_ERRORS as exc:
            reason = _error_reason(exc)
            self._problem("action_url_template", number, str(exc), reason=reason)
            return None
        if not is_safe_url(url):
            why = f"{url!r} is not an http, https or mailto URL"
            self._problem("action_url_template", number, why, reason="not safe")
            return None
        if dot_segment(url):  # "../admin" would lead elsewhere on the site: the row's value
            why = f"{url!r} has a '.' or '..' path segment, which leads to another page"
            self._problem("action_url_template", number, why, setting=False, reason="dot segment")
            return None
        return RecordAction(label=self.table.action_label, url=url)

    def _action_columns(self, template: str, row: Row) -> list[str]:
        """The columns the action template uses (checked on the header: each is in ``row``)."""
        if self.action_columns is None:
            used = template_columns(template, row, f"{self.where}.action_url_template")
            self.action_columns = [column for column in used if column in row]
        return self.action_columns


def _error_reason(exc: Exception) -> str:
    """What a template error is about, whatever value it quotes: the field it names
    (``{price:.2f} needs a number, and 'n/a' is not one``) and its kind."""
    text = str(exc)
    field_end = text.find("}") + 1 if text.startswith("{") else 0
    return f"{type(exc).__name__} {text[:field_end]}"
