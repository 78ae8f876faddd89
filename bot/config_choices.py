"""The "did you mean" hint for a mistyped choice in ``config.yaml`` (``assistant.backend:
openia``), as :mod:`bot.config_file` gives one for a misspelt key."""

from __future__ import annotations

import difflib
import types
from typing import Any, Literal, Union, get_args, get_origin


def literal_choices(annotation: Any) -> list[str]:
    """The text values a setting's type allows (``Literal[...]``, also ``Literal[...] | None``);
    [] for any other type."""
    if get_origin(annotation) is Literal:
        return [arg for arg in get_args(annotation) if isinstance(arg, str)]
    if get_origin(annotation) in (Union, types.UnionType):
        return [found for arg in get_args(annotation) for found in literal_choices(arg)]
    return []


def close_choice(value: str, choices: list[str]) -> str | None:
    """The choice ``value`` was most likely meant to be (letter case aside), or None."""
    by_folded = {choice.casefold(): choice for choice in choices}
    close = difflib.get_close_matches(value.strip().casefold(), list(by_folded), n=1)
    return by_folded[close[0]] if close else None
