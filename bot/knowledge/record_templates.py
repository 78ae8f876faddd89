"""The templates of a record table: ``label_template`` and ``action_url_template``.

A template is Python format syntax over the row's columns: ``{name} ({sku})``. A field that is
exactly a column's name is that column, so headers with dots or spaces work (``{unit.price}``,
``{Product name}``); otherwise ``{name[0]}`` indexes a value and a format spec applies
(``{name:>10}``). Values are text, so a number's format spec (``{price:.2f}``, ``{seats:,}``)
applies to a value written as a plain number (``19``, ``-1.5e3``); for any other value the row
cannot be filled, and the message names the field and the value. Attribute access
(``{name.upper}``), positional fields (``{}``, ``{0}``) and a spec that fits neither text nor
numbers (``{price:.2q}``) are refused, as is broken syntax (``{name ({sku})``): each a
ConfigError naming the config key, raised when ``citecast serve`` or ``ask`` start.

A label (:func:`render_label`) leaves out a blank value together with what only dresses it: a
bracket group holding no other value (``{name} (page {page})`` is ``Beta``, not ``Beta (page
)``), a separator left dangling (``{name} – {city}`` is ``Beta``) and, at the label's end, the
one word written right after it, its unit (``{name} {price:.2f} EUR`` is ``Gasket``).

In a URL (:func:`render` with ``url``) each value is percent-encoded, ``/`` kept; in the
addresses of a ``mailto:`` URL (before its ``?``) ``@`` is kept too, as mail programs show the
link (``mailto:ana@example.com``, not ``mailto:ana%40example.com``): they decode it either way.
"""

from __future__ import annotations

import re
import string
from collections.abc import Collection, Mapping, Sequence
from decimal import Decimal
from typing import Any
from urllib.parse import quote, unquote, urlsplit

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
# a value a number's format spec applies to: what a spreadsheet writes ("1.5E+03"), never
# "nan", "1_000" or "1e999999999" (its "{:.2f}" would be a billion digits)
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,2})?")
# A blank value in a label: a marker no cleaned value holds (control characters are removed),
# and the two that fence a value, so that brackets and separators inside one are never taken
# for the template's own.
_BLANK, _OPEN, _CLOSE = "\x00", "\x01", "\x02"
_MARKS = dict.fromkeys(map(ord, (_BLANK, _OPEN, _CLOSE)))
_SEPARATORS = r"[\s.,;:|/·\-\u2013\u2014]*"
_EMPTY_GROUPS = (
    re.compile(rf"\s*\([^()\[\]{_OPEN}{_CLOSE}]*{_BLANK}[^()\[\]{_OPEN}{_CLOSE}]*\)"),
    re.compile(rf"\s*\[[^()\[\]{_OPEN}{_CLOSE}]*{_BLANK}[^()\[\]{_OPEN}{_CLOSE}]*\]"),
)
_AT_EDGE = re.compile(
    rf"^{_SEPARATORS}{_BLANK}{_SEPARATORS}|{_SEPARATORS}{_BLANK}{_SEPARATORS}$"
    rf"|(?<=[(\[]){_SEPARATORS}{_BLANK}{_SEPARATORS}|{_SEPARATORS}{_BLANK}{_SEPARATORS}(?=[)\]])"
)
_BETWEEN = re.compile(rf"({_SEPARATORS}){_BLANK}({_SEPARATORS})")
_RUN = re.compile(rf"{_BLANK}(?:{_SEPARATORS}{_BLANK})+")  # "{a}, {b}, {c}" with a and b blank
# the one word after a blank value that ends the label: its unit ("{price:.2f} EUR")
_UNIT = re.compile(rf"{_BLANK}[^\S\n]*[^\s()\[\]{_OPEN}{_CLOSE}{_BLANK}]+\s*$")
# The widest width or precision a spec may ask for: a value is cut to 2,000 characters anyway,
# and "{name:{width}}" takes the width from a cell, where 300000000 cost 1.4 GB for one row.
MAX_SPEC_WIDTH = 2000
_DIGITS = re.compile(r"\d+")


def too_wide(spec: str) -> bool:
    """True when ``spec`` asks for a width or precision over :data:`MAX_SPEC_WIDTH`."""
    return any(len(run) > 4 or int(run) > MAX_SPEC_WIDTH for run in _DIGITS.findall(spec))


def _format_value(value: object, spec: str, field: str) -> str:
    """``value`` formatted by ``spec``; a text value written as a number takes a number's spec.

    Raises ValueError naming ``field`` and the value when it cannot be formatted so.
    """
    if too_wide(spec):  # before formatting: the string it asks for is the harm
        raise ValueError(
            f"{{{field}:{spec}}}: a width or precision over {MAX_SPEC_WIDTH:,} is refused"
        )
    try:
        return format(value, spec)
    except ValueError:
        if not isinstance(value, str):
            raise
    if not _NUMBER.fullmatch(value.strip()):
        raise ValueError(f"{{{field}:{spec}}} needs a number, and {value!r} is not one") from None
    number = Decimal(value.strip())
    try:
        return format(number, spec)
    except ValueError:
        pass
    # integer presentations ("d", "x", "b", "c") take no Decimal
    if number != number.to_integral_value():
        raise ValueError(f"{{{field}:{spec}}} needs a whole number, and {value!r} is not one")
    try:
        return format(int(number), spec)
    except OverflowError:  # "c" of a number past the last character
        raise ValueError(f"{{{field}:{spec}}}: {value!r} is out of range") from None


def _filled(field: str, spec: str, conversion: str | None, row: Mapping[str, str]) -> str:
    value, _ = _FORMATTER.get_field(field, (), row)
    if conversion:
        value = _FORMATTER.convert_field(value, conversion)
    if "{" in spec:  # "{name:{width}}"
        spec = render(spec, row)
    return _format_value(value, spec, field)


def render(template: str, row: Mapping[str, str], *, url: bool = False) -> str:
    """``template`` filled from ``row``; raises KeyError, IndexError or ValueError.

    ``url``: each value is URL-quoted once formatted (``/`` kept, see
    :func:`check_action_template`; ``@`` too in a ``mailto:`` URL's addresses), so a format
    spec's padding or a ``!r`` quote is quoted too.
    """
    parts: list[str] = []
    # a mail address's "@" is safe before the "?" of a mailto: URL (addresses, not headers)
    addresses = url and template[:7].lower() == "mailto:"
    for literal, field, spec, conversion in string.Formatter().parse(template):
        parts.append(literal)
        addresses = addresses and "?" not in literal
        if field is not None:
            value = _filled(field, spec or "", conversion, row)
            parts.append(quote(value, safe="/@" if addresses else "/") if url else value)
    return "".join(parts)


def render_label(template: str, row: Mapping[str, str]) -> str:
    """``template`` filled from ``row`` as a label: a blank value is left out with the bracket
    group it alone fills and the separators it would leave dangling; ``""`` when every value
    is blank (the caller's default label then applies). Raises as :func:`render` does."""
    parts: list[str] = []
    filled = False
    for literal, field, spec, conversion in string.Formatter().parse(template):
        parts.append(literal.translate(_MARKS))
        if field is None:
            continue
        column = field if field in row else re.split(r"[.\[]", field, maxsplit=1)[0]
        value = (
            "" if not row.get(column, "x").strip() else _filled(field, spec or "", conversion, row)
        )
        filled = filled or bool(value.strip())
        parts.append(f"{_OPEN}{value}{_CLOSE}" if value.strip() else _BLANK)
    if not filled:
        return ""
    text = "".join(parts)
    if _BLANK not in text:  # nothing to leave out (most rows)
        return text.replace(_OPEN, "").replace(_CLOSE, "")
    previous = None
    while previous != text:
        previous = text
        text = _RUN.sub(_BLANK, text)
        text = _UNIT.sub(_BLANK, text, count=1)
        for group in _EMPTY_GROUPS:  # a group left empty is blank itself: "({a} [{b}])"
            text = group.sub(_BLANK, text)
        text = _AT_EDGE.sub("", text, count=1)
    # between two values, one separator stays: the first that is more than a space
    text = _BETWEEN.sub(lambda m: m[1] if m[1].strip() or not m[2].strip() else m[2], text)
    return text.replace(_OPEN, "").replace(_CLOSE, "").replace(_BLANK, "")


def template_columns(template: str, header: Collection[str], key: str) -> list[str]:
    """The columns ``template`` uses (each may be missing from ``header``: the caller says so).

    ``key`` names the template in messages (``index.records.0.label_template``).
    """
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ConfigError(f"{key}: {exc} in {template!r}") from None
    columns: list[str] = []
    for _, field, spec, conversion in parsed:
        if field is None:
            continue
        if conversion not in (None, "r", "s", "a"):
            raise ConfigError(f"{key}: {{{field}!{conversion}}}: a conversion is !s, !r or !a")
        if spec and "{" in spec:  # "{name:{width}}": the width comes from a column as well
            columns += template_columns(spec, header, key)
        elif spec and too_wide(spec):
            raise ConfigError(
                f"{key}: {{{field}:{spec}}}: a width or precision over {MAX_SPEC_WIDTH:,} "
                "is refused (a value is cut to that anyway)"
            )
        elif spec and not _known_spec(spec):
            raise ConfigError(
                f"{key}: {{{field}:{spec}}}: {spec!r} formats neither text nor numbers"
            )
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


def _known_spec(spec: str) -> bool:
    """True when ``spec`` formats text, a decimal number or a whole one."""
    for sample in ("x", Decimal(1), 1):
        try:
            format(sample, spec)
        except ValueError:
            continue
        return True
    return False


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


def dot_segment(url: str) -> bool:
    """True when the path of the http(s) ``url`` has a ``.`` or ``..`` segment.

    A value keeps its ``/`` (paths), so ``../admin`` for ``https://example.com/buy/{sku}``
    would link to ``https://example.com/admin``: a browser resolves those segments, encoded
    (``%2E%2E``) as well, so quoting them would not help. Such a row gets no action.
    """
    if not _WEB_URL.match(url):
        return False  # mailto: has no path to walk up
    segments = urlsplit(url).path.split("/")
    return any(unquote(segment) in (".", "..") for segment in segments)
