"""The base of every settings section, and the checks several sections share (``bot.config``)."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import BaseModel, BeforeValidator, ConfigDict, PrivateAttr


def one_or_many(value: Any) -> Any:
    """A group written alone (``audience: staff``) as the list of that one group, as front
    matter reads it; anything else is left to the field's own check."""
    return [value] if isinstance(value, str) else value


Groups = Annotated[list[str], BeforeValidator(one_or_many)]
"""An audience setting: a list of groups, or one group written alone."""


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


class Section(BaseModel):
    """Base of every settings section: immutable, unknown keys are errors.

    ``_blank_because`` says, for a key that a ``${NAME}`` left blank when the file was read,
    which variable it was (``bot.config_env``): not part of the settings, and copied with them.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    _blank_because: dict[str, str] = PrivateAttr(default_factory=dict)
