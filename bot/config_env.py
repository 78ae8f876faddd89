"""``${NAME}`` references in ``config.yaml``: expanding them, and saying which left a key blank.

A secret comes from the environment (``bot_token: ${SLACK_BOT_TOKEN}``). When the variable is
not set, the key is read as empty, and a connector that needs it stops the start: its message
should say that the variable is missing, not repeat what the file says. :func:`remember_blanks`
notes on each settings section, when the file is read, which of its keys an unset or empty
variable blanked (copied with the section by ``model_copy``), and
:func:`empty_setting` words a connector's start-up error from that note.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel

from bot.config import Section
from bot.errors import ConfigError

ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")

KeyPath = tuple[str | int, ...]


def expand_env(value: Any, env: Mapping[str, str] | None = None) -> Any:
    """Replace ``${NAME}`` and ``${NAME:-default}`` in every string of a parsed YAML tree.

    As in the shell (and docker compose), ``${NAME:-default}`` is the default when ``NAME`` is
    unset or empty: ``export PORT=`` must not turn ``${PORT:-8000}`` into a blank port.
    """
    environ = os.environ if env is None else env
    if isinstance(value, str):
        return ENV_REF.sub(lambda m: environ.get(m.group(1)) or m.group(2) or "", value)
    if isinstance(value, list):
        return [expand_env(item, env) for item in value]
    if isinstance(value, dict):
        return {key: expand_env(item, env) for key, item in value.items()}
    return value


def blank_refs(
    value: Any, environ: Mapping[str, str], path: KeyPath = ()
) -> Iterator[tuple[KeyPath, str, bool]]:
    """``(key path, NAME, is set)`` for every ``${NAME}`` without a default that expands to
    nothing: unset (``is set`` False) or set to an empty string."""
    if isinstance(value, str):
        for match in ENV_REF.finditer(value):
            name = match.group(1)
            if match.group(2) is None and not environ.get(name):
                yield path, name, name in environ
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from blank_refs(item, environ, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from blank_refs(item, environ, (*path, str(key)))


def env_notes(
    value: Any, environ: Mapping[str, str], path: KeyPath = ()
) -> Iterator[tuple[KeyPath, str]]:
    """``(key path, note)`` for every ``${NAME}`` whose variable made the value there.

    For a refused value, it says where the value came from, since the file does not show it:
    ``from ${PORT}`` when the variable is set, ``${PORT} is empty`` or ``${PORT} is not set``
    when it blanked the value. A ``${NAME:-default}`` whose default stood in gets no note: the
    default is in the file, as written. The variable's value itself is never quoted (it may be
    a secret).
    """
    if isinstance(value, str):
        for match in ENV_REF.finditer(value):
            name, default = match.group(1), match.group(2)
            if environ.get(name):
                yield path, f"from ${{{name}}}"
            elif default is None:
                yield path, f"${{{name}}} is {'empty' if name in environ else 'not set'}"
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from env_notes(item, environ, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from env_notes(item, environ, (*path, str(key)))


def remember_blanks(settings: BaseModel, data: Any, environ: Mapping[str, str]) -> None:
    """Note, for each key of ``settings`` that a ``${NAME}`` in ``data`` (the file as written)
    left blank, which variable it was and that it is unset or empty."""
    for path, name, is_set in blank_refs(data, environ):
        section: Any = settings
        for part in path[:-1]:
            if isinstance(part, int) and isinstance(section, list) and part < len(section):
                section = section[part]
            elif isinstance(part, str) and isinstance(section, BaseModel):
                section = getattr(section, part, None)
            else:
                section = None
                break
        key = path[-1] if path else None
        if isinstance(section, Section) and isinstance(key, str):
            state = "is empty" if is_set else "is not set"
            why = f"${{{name}}} {state} in the environment"
            notes = section._blank_because  # a private note, not a field: frozen allows it
            notes[key] = f"{notes[key]}, {why}" if key in notes else why


def blank_because(section: BaseModel, key: str) -> str:
    """Why ``key`` of ``section`` was blank when the config was read (``${SLACK_BOT_TOKEN} is
    not set in the environment``), or ``""`` when no variable blanked it."""
    return section._blank_because.get(key, "") if isinstance(section, Section) else ""


def empty_setting(
    key: str, section: BaseModel, guess: str, *, problem: str = "empty", then: str = ""
) -> ConfigError:
    """The start-up error for a required setting (``key``, dotted) left blank.

    ``slack.bot_token: empty: ${SLACK_BOT_TOKEN} is not set in the environment`` when a
    variable blanked it; otherwise ``problem`` followed by ``guess`` (the connector's advice,
    such as `` (set it to ${SLACK_BOT_TOKEN})``). ``then`` (what would go wrong) ends both.
    """
    why = blank_because(section, key.rsplit(".", 1)[-1])
    return ConfigError(f"{key}: {problem}" + (f": {why}" if why else guess) + then)
