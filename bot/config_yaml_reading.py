"""What YAML read a value as, for a config error about a text setting it took for something
else: ``title: no`` is false, ``title: 2024-01-01`` a date, ``subtitle: 12:30:45`` the number
45045 (YAML 1.1 reads base 60), ``title: 0x1F`` the number 31. Pydantic says only "Input should
be a valid string", which does not tell the author that quotes keep the value as written.
"""

from __future__ import annotations

import datetime
from typing import Any


def yaml_reading(value: Any) -> str | None:
    """What YAML made of ``value`` in words (``the number 31``, ``false``), or None for text
    and for what needs no explaining (a list, a mapping)."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (YAML reads yes, no, on and off as true or false)"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, datetime.datetime):
        return f"the date and time {value.isoformat(sep=' ')}"
    if isinstance(value, datetime.date):
        return f"the date {value.isoformat()}"
    return None


def text_expected(value: Any, *, one_or_list: bool = False) -> str | None:
    """The reason for a text setting (``one_or_list``: or a list of texts, such as an
    audience) given ``value``, which YAML read as something else; None when that is not it."""
    wanted = "text or a list of texts" if one_or_list else "text"
    reading = yaml_reading(value)
    if reading is not None:
        return f"must be {wanted}, but YAML read the value as {reading}; put it in quotes"
    if isinstance(value, list) and not one_or_list:
        return "must be text, not a list"
    if isinstance(value, dict):
        return f"must be {wanted}, not a mapping"
    return None
