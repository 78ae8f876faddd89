"""Field checks for the model's JSON forms (``from_json`` in :mod:`bot.models`).

Each raises :class:`bot.errors.ValidationError` naming the key, so ``citecast render`` and the
REST API can say in one line which field of an Answer is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from bot.errors import ValidationError

T = TypeVar("T")


def list_of(data: Mapping[str, Any], key: str, build: Callable[[Any], T]) -> list[T]:
    """``data[key]`` as a list of ``build(item)``; none when left out, an error naming the
    index of the item that fails."""
    items = data.get(key)
    if items is None:
        return []  # left out (or null): none
    # an empty {} or "" is as wrong as a full one: say so rather than read it as "none"
    if not isinstance(items, Sequence) or isinstance(items, str):
        raise ValidationError(f"{key} must be a list")
    out: list[T] = []
    for index, item in enumerate(items):
        try:
            out.append(build(item))
        except ValidationError as exc:
            raise ValidationError(f"{key}[{index}]: {exc}") from None
    return out


def positive_int(value: Any, name: str) -> int:
    """``value`` when it is an integer of at least 1 (a bool is not one)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValidationError(f"{name} must be a positive integer")
    return value


def optional_str(data: Mapping[str, Any], key: str) -> str | None:
    """``data[key]`` when it is a string, None when left out or null."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"{key} must be a string")
    return value
