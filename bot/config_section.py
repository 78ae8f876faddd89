"""The base of every settings section, and the checks several sections share (``bot.config``)."""

from __future__ import annotations

import types
from typing import Annotated, Any, Union, get_args, get_origin
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    PrivateAttr,
    ValidationInfo,
    field_validator,
)

from bot.public_group import public_in_another_case


def one_or_many(value: Any) -> Any:
    """A group written alone (``audience: staff``) as the list of that one group, as front
    matter reads it; anything else is left to the field's own check."""
    return [value] if isinstance(value, str) else value


def no_bar_in_groups(value: list[str]) -> list[str]:
    """``value`` unless a group name is blank or holds ``|`` or ``,``.

    The index joins a document's groups with ``|`` (``bot.knowledge.schema``), and a viewer's
    group ``staff|hr`` matches no document's group, so it was dropped without a word and the
    viewer read as the public. A blank name (``[""]``, a ``${GROUP}`` left unset) matches none
    either: the viewer read as the public while the operator believed a group applied. So did
    ``public_audience: public, staff``, one group ``public, staff`` to YAML (where front matter
    and ``--audience`` split ``staff, hr`` at the comma): no document can name that group.
    """
    no_bar_in_names(value)
    for name in value:
        if "," in name:
            listed = ", ".join(part.strip() for part in name.split(","))
            raise ValueError(
                f", in group name {name!r}; write several groups as a YAML list: [{listed}]"
            )
    return value


def no_bar_in_names(value: list[str]) -> list[str]:
    """``value`` unless a group name is blank, holds ``|`` (see :func:`no_bar_in_groups`) or
    is ``public`` in another case (:mod:`bot.public_group`); a comma is left to the reader
    that splits at it."""
    for name in value:
        if not name.strip():
            raise ValueError(f"empty group name in {value!r}; name each group, or write public")
        if "|" in name:
            raise ValueError(f"| in group name {name!r}; list each group on its own")
        problem = public_in_another_case(name, "group")  # PUBLIC was a group of that name
        if problem:
            raise ValueError(problem)
    return value


Groups = Annotated[list[str], BeforeValidator(one_or_many), AfterValidator(no_bar_in_groups)]
"""An audience setting: a list of groups, or one group written alone; no name is blank or
holds ``|`` or ``,``."""

DocumentGroups = Annotated[list[str], BeforeValidator(one_or_many), AfterValidator(no_bar_in_names)]
"""A document's audience written in config (``index.records[].audience``): as
:data:`Groups`, except that ``"staff, hr"`` is two groups, as front matter reads it
(:func:`bot.knowledge.audience.document_audience` splits it when the table is checked)."""


def base_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a deployment's public base URL, or None when it can.

    Links built on it (signed downloads, ``/turns/KEY``) must be absolute http(s) URLs:
    renderers drop any other link, so ``ask.example.com`` would lose them without a word.
    """
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"not a URL ({exc})"
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return f"must be an http:// or https:// URL with a host, not {url!r}"
    if any(ord(ch) <= 0x20 or ch == "\x7f" for ch in url):
        return f"must not contain spaces or control characters: {url!r}"
    return None


def named_file(value: str) -> str:
    """``value`` unless blank (an unset ``${INDEX_PATH}``): a blank path would name the config
    file's folder itself, where SQLite can neither open nor build a database."""
    if not value.strip():
        raise ValueError("must not be blank")
    return value


def _number_kinds(annotation: Any) -> tuple[str, bool] | None:
    """``("integer" | "number", in a list)`` for a setting of numbers (``int``, ``float | None``,
    ``list[int]``), None for any other type."""
    if annotation in (int, float):
        return ("integer" if annotation is int else "number"), False
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        kinds = [found for arg in get_args(annotation) if (found := _number_kinds(arg))]
        # a setting that also takes a flag (``bool | int``) keeps it
        return kinds[0] if kinds and bool not in get_args(annotation) else None
    if origin is list:
        args = get_args(annotation)
        found = _number_kinds(args[0]) if args else None
        return (found[0], True) if found and not found[1] else None
    return None


def _as_written(flag: bool) -> str:
    return "true" if flag else "false"


class Section(BaseModel):
    """Base of every settings section: immutable, unknown keys are errors, and a flag is no
    number.

    ``_blank_because`` says, for a key that a ``${NAME}`` left blank when the file was read,
    which variable it was (``bot.config_env``): not part of the settings, and copied with them.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    _blank_because: dict[str, str] = PrivateAttr(default_factory=dict)

    @field_validator("*", mode="before")
    @classmethod
    def _no_flag_for_a_number(cls, value: Any, info: ValidationInfo) -> Any:
        """Refuse ``true``/``yes``/``on`` (and their opposites) for a number: pydantic reads
        them as 1 and 0, so ``port: yes`` listened on port 1 and ``max_question_chars: yes``
        refused every question longer than one character, without a word."""
        field = cls.model_fields.get(info.field_name or "")
        if field is None or any(isinstance(m, BeforeValidator) for m in field.metadata):
            return value  # a field with a check of its own says it in its own words
        kinds = _number_kinds(field.annotation)
        if kinds is None:
            return value
        kind, in_list = kinds
        items = value if in_list and isinstance(value, list) else [value]
        flag = next((item for item in items if isinstance(item, bool)), None)
        if flag is not None:
            raise ValueError(
                f"Input should be a valid {kind}, not {_as_written(flag)} "
                "(YAML reads yes, on, no and off as true or false)"
            )
        return value
