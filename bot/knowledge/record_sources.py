"""Turning one record table's rows into Sources (see :mod:`bot.knowledge.records`).

Each row keeps only the configured columns (and its label), under the names people see them
under (``column_labels``, :mod:`bot.knowledge.record_labels`); its id is the ``id_column`` value or
its row number, made unique with ``#<row number>``; its label and action come from the table's
templates. A row a template cannot fill keeps its place with the default label or without an
action, and one warning per setting counts such rows; a template no row can fill is wrong, and
that is a ConfigError naming it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from bot.config import RecordTable
from bot.errors import ConfigError
from bot.knowledge.record_labels import shown_names
from bot.knowledge.record_rows import (
    MAX_VALUE_CHARS,
    Row,
    one_line,
    shortened,
    table_rows,
    used_columns,
)
from bot.knowledge.record_templates import dot_segment, render, render_label, template_columns
from bot.models import RecordAction, Source, is_safe_url

log = logging.getLogger(__name__)

_TEMPLATE_ERRORS = (KeyError, IndexError, ValueError, AttributeError, TypeError)
_CONSEQUENCE = {
    "label_template": " (such rows are labelled with the table name and row id)",
    "action_url_template": " (such rows have no action)",
    "csv": f" (such values are cut to {MAX_VALUE_CHARS:,} characters, ending in …)",
    "sqlite": f" (such values are cut to {MAX_VALUE_CHARS:,} characters, ending in …)",
}


def read_records(table: RecordTable, where: str) -> list[Source]:
    """Every record of ``table`` (``where`` is its config key, ``index.records.0``)."""
    builder = _Builder(table, where)
    records = [builder.record(row, n) for n, row in enumerate(table_rows(table, where), start=1)]
    builder.report(len(records))
    return records


@dataclass
class _Problem:
    """Rows of one table a setting could not be applied to: how many, and the first."""

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
    # (setting, whether it is the setting's fault) -> the rows it missed; a blank value a
    # template needs is the row's (a product without a page yet), never a reason to refuse
    problems: dict[tuple[str, bool], _Problem] = field(default_factory=dict)
    action_columns: list[str] | None = None
    used_columns: list[str] | None = None
    shown: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.shown = shown_names(self.table)

    def _problem(self, key: str, row: int, message: str, *, setting: bool = True) -> None:
        self.problems.setdefault((key, setting), _Problem()).add(row, message)

    def report(self, total: int) -> None:
        """A template no row could fill is wrong: ConfigError; otherwise one warning per
        setting with the count of rows it missed and the first of them; one when there are no
        rows (a header alone), as every lookup of the table will find nothing."""
        if not total:
            log.warning("%s: table %r has no rows", self.where, self.table.name)
        for (key, setting), problem in self.problems.items():
            if setting and key != "id_column" and problem.count == total:
                raise ConfigError(f"{self.where}.{key}: {problem.message}")
        for (key, _), problem in self.problems.items():
            log.warning(
                "%s.%s: %d of %d rows, first row %d: %s%s",
                *(self.where, key, problem.count, total, problem.row, problem.message),
                _CONSEQUENCE.get(key, ""),
            )

    def _row_id(self, row: Row, number: int) -> str:
        table = self.table
        value = row.get(table.id_column, "") if table.id_column else ""
        row_id = value or str(number)
        if row_id in self.used:
            base, row_id, extra = row_id, f"{row_id}#{number}", 1
            while row_id in self.used:
                extra += 1
                row_id = f"{base}#{number}.{extra}"
            what = f"the id {value!r}" if value else f"no id, and the row number {base!r}"
            self._problem(
                "id_column",
                number,
                f"{what} is taken by an earlier row, so it is cited as {table.name}/{row_id}",
            )
        self.used.add(row_id)
        return row_id

    def record(self, row: Row, number: int) -> Source:
        # the columns named in the config were checked on the header (check_header)
        table = self.table
        if self.used_columns is None:
            self.used_columns = used_columns(table, row, self.where)
        cut_row, cut = shortened(row, self.used_columns)
        if cut:
            source = table.csv or f"table {table.table!r} of {table.sqlite}"
            message = f"column {cut[0]!r} of {source} holds {len(row[cut[0]]):,} characters"
            self._problem("csv" if table.csv else "sqlite", number, message, setting=False)
        row = cut_row
        row_id = self._row_id(row, number)
        label = ""
        if table.label_template:
            try:
                label = one_line(render_label(table.label_template, row))
            except _TEMPLATE_ERRORS as exc:
                self._problem("label_template", number, str(exc))
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
            id=f"{table.name}/{row_id}",
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
            self._problem("action_url_template", number, str(exc))
            return None
        if not is_safe_url(url):
            self._problem(
                "action_url_template", number, f"{url!r} is not an http, https or mailto URL"
            )
            return None
        if dot_segment(url):  # "../admin" would lead elsewhere on the site: the row's value
            why = f"{url!r} has a '.' or '..' path segment, which leads to another page"
            self._problem("action_url_template", number, why, setting=False)
            return None
        return RecordAction(label=self.table.action_label, url=url)

    def _action_columns(self, template: str, row: Row) -> list[str]:
        """The columns the action template uses (checked on the header: each is in ``row``)."""
        if self.action_columns is None:
            used = template_columns(template, row, f"{self.where}.action_url_template")
            self.action_columns = [column for column in used if column in row]
        return self.action_columns
