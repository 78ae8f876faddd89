"""The templates of a record table: ``label_template`` and ``action_url_template``.

A template is Python format syntax over the row's columns: ``{name} ({sku})``. A field that is
exactly a column's name is that column, so headers with dots or spaces work (``{unit.price}``,
``{Product name}``); otherwise ``{name[0]}`` indexes a value and a format spec applies
(``{name:>10}``). Attribute access (``{name.upper}``) and positional fields (``{}``, ``{0}``) name
no column and are refused, as is broken syntax (``{name ({sku})``): each a ConfigError naming
the config key, raised when ``citecast serve`` or ``ask`` start.
"""

from __future__ import annotations

import re
import string
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from bot.errors import ConfigError
from bot.models import is_safe_url

_BRACKETS = re.compile(r"\[[^\]]*\]")
_WEB_URL = re.compile(r"https?://", re.IGNORECASE)
# a template's text up to its first field holds the whole host when it reaches a "/", "?" or "#"
_WHOLE_HOST = re.compile(r"https?://[^/?#]+[/?#]", re.IGNORECASE)


class _RowFormatter(string.Formatter):
    """``str.format`` where a field that is a whole column name wins over index/attribute
    parsing (a column called ``unit.price``)."""

    def get_field(self, field_name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if field_name in kwargs:
            return kwargs[field_name], field_name
        return super().get_field(field_name, args, kwargs)


_FORMATTER = _RowFormatter()


def render(template: str, row: Mapping[str, str]) -> str:
    """``template`` filled from ``row``; raises KeyError, IndexError or ValueError."""
    return _FORMATTER.vformat(template, (), row)


def template_columns(template: str, header: Collection[str], key: str) -> list[str]:
    """The columns ``template`` uses (each may be missing from ``header``: the caller says so).

    ``key`` names the template in messages (``index.records[0].label_template``).
    """
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ConfigError(f"{key}: {exc} in {template!r}") from None
    columns: list[str] = []
    for _, field, spec, _ in parsed:
        if field is None:
            continue
        if spec and "{" in spec:  # "{name:{width}}": the width comes from a column as well
            columns += template_columns(spec, header, key)
        if field in header:
            columns.append(field)
            continue
        if not field or field.isdigit():
            raise ConfigError(f"{key}: {{{field}}} names no column; write {{column}}")
        column = re.split(r"[.\[]", field, maxsplit=1)[0]
        if "." in _BRACKETS.sub("", field[len(column) :]):
            raise ConfigError(
                f"{key}: {{{field}}}: write {{column}} or {{column[0]}} "
                "(attribute access is not supported)"
            )
        columns.append(column)
    return columns


def check_action_template(template: str, columns: Sequence[str], key: str) -> None:
    """Refuse an ``action_url_template`` that cannot make a URL a citation may carry.

    Values are percent-encoded (a ``:`` in one is ``%3A``), so the scheme always comes from the
    template's own text: one that does not start ``https://host``, ``http://host`` or
    ``mailto:`` would have every record's action dropped, one warning per record.
    """
    try:
        sample = render(template, dict.fromkeys(columns, "x"))
    except (KeyError, IndexError, ValueError):
        return  # depends on the values: each row's URL is checked as it is made
    if not is_safe_url(sample):
        raise ConfigError(
            f"{key}: {template!r} is not an absolute http, https or mailto URL "
            "(e.g. https://example.com/buy/{sku})"
        )
    # "/" stays as it is in a value (paths), so a value written into the host could move the
    # link to another site ("{shop}.example.com" with "evil.test/"): the host is the template's
    literal = next(iter(string.Formatter().parse(template)), ("", None, None, None))
    if literal[1] is not None and _WEB_URL.match(sample) and not _WHOLE_HOST.match(literal[0]):
        raise ConfigError(
            f"{key}: {template!r}: a column may not be part of the host name; write it after "
            "the host (e.g. https://example.com/buy/{sku})"
        )


class QuotedRow(Mapping[str, str]):
    """A row whose values read URL-quoted, for ``action_url_template`` (only the values a
    template asks for are quoted; ``/`` is kept, see :func:`check_action_template`)."""

    def __init__(self, row: Mapping[str, str]) -> None:
        self._row = row

    def __getitem__(self, key: str) -> str:
        return quote(self._row[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._row)

    def __len__(self) -> int:
        return len(self._row)
