"""A pydantic validation error in the words of a config file (used by :mod:`bot.config_file`).

pydantic says "Extra inputs are not permitted" and "Input should be a valid string"; a person
editing config.yaml needs "unknown key (did you mean port?)", "is blank", and what YAML read an
unquoted ``no`` or ``12:30`` as. The key path of the error finds the settings class and field it
is about, for the known keys and choices to suggest.
"""

from __future__ import annotations

import difflib
import types
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

from bot.config import Settings
from bot.config_choices import close_choice, literal_choices
from bot.config_section import one_or_many
from bot.config_yaml_reading import text_expected


def _model_at(loc: tuple[str | int, ...]) -> type[BaseModel] | None:
    """The settings class that holds the last key of ``loc`` (None when it is not one)."""
    model: type[BaseModel] = Settings
    for part in loc[:-1]:
        if isinstance(part, int):
            continue  # an entry of a list of sections (index.records.0)
        field = model.model_fields.get(part)
        found = _model_in(field.annotation) if field else None
        if found is None:
            return None
        model = found
    return model


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) in (list, Union, types.UnionType):
        for arg in get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def error_reason(error: Any) -> str:
    """One pydantic validation error (an item of ``errors()``) in the words of a config file:
    an unknown key with the closest known one, a blank or YAML-misread value said as such, a
    mistyped choice with the choice meant; otherwise pydantic's own message."""
    loc = tuple(error["loc"])
    if error["type"] == "extra_forbidden" and loc:
        model = _model_at(loc)
        known = list(model.model_fields) if model else []
        close = difflib.get_close_matches(str(loc[-1]), known, n=1)
        return f"unknown key (did you mean {close[0]}?)" if close else "unknown key"
    if error["type"] != "missing" and error.get("input", "") is None:
        # `port:` with nothing after it: YAML reads null, and "NoneType" helps nobody
        return "is blank; give it a value, or leave the key out for the default"
    if error["type"] == "model_type":
        return "must be a mapping of keys (key: value lines), not " + type(error["input"]).__name__
    if error["type"] in ("string_type", "list_type"):
        # `title: no` is false to YAML: say what it read, and that quotes keep the text
        one_or_list = error["type"] == "list_type" and _one_or_list_at(loc)
        if error["type"] == "string_type" or one_or_list:
            explained = text_expected(error.get("input"), one_or_list=one_or_list)
            if explained:
                return explained
    message = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "literal_error" and isinstance(error.get("input"), str):
        choice = close_choice(error["input"], _choices_at(loc))
        if choice:
            # "openia" for openai: the same hint as a misspelt key gets
            return f"{message} (did you mean {choice}?)"
    return message


def _one_or_list_at(loc: tuple[str | int, ...]) -> bool:
    """Whether the setting at ``loc`` takes one text alone as well as a list (an audience)."""
    model = _model_at(loc)
    field = model.model_fields.get(str(loc[-1])) if model and loc else None
    return field is not None and any(
        getattr(meta, "func", None) is one_or_many for meta in field.metadata
    )


def _choices_at(loc: tuple[str | int, ...]) -> list[str]:
    """The text values the setting at ``loc`` may take (``Literal[...]``), [] when not known."""
    model = _model_at(loc)
    field = model.model_fields.get(str(loc[-1])) if model and loc else None
    return literal_choices(field.annotation) if field else []
