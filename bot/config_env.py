"""``${NAME}`` references in ``config.yaml``: expanding them, refusing the shell's other forms
(``$NAME``, ``${NAME-default}``, ``${ NAME }``: kept as text, they were a guessable secret), and
saying which left a key blank. ``$$`` is a ``$`` of the value itself.

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
from bot.config_env_cuts import replace_cut_starts
from bot.errors import ConfigError

# What a ``$`` starts, left to right: ``$$`` (a literal ``$``), a reference citecast reads, or
# one of the shell's other forms it does not (``$NAME``, ``${NAME-x}``, ``${ NAME }``, an
# unclosed ``${NAME``). A ``$`` before anything else (``$5``, ``$``) is text.
_DOLLAR = re.compile(
    r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{[^}]*\}?|\$[A-Za-z_][A-Za-z0-9_]*"
)

_VARIABLE_LIKE = re.compile(r"\$[A-Z_][A-Z0-9_]*|\$\{[^}]{0,60}\}?")

KeyPath = tuple[str | int, ...]


def _refs(text: str) -> Iterator[re.Match[str]]:
    """The ``${NAME}`` and ``${NAME:-default}`` references of ``text`` (group 1 the name,
    group 2 the default), not counting an escaped ``$${NAME}``."""
    return (match for match in _DOLLAR.finditer(text) if match.group(1) is not None)


def _expanded(match: re.Match[str], environ: Mapping[str, str]) -> str:
    if match.group(1) is None:
        # ``$$`` is one ``$``; an unsupported form (refused first by unsupported_ref) stays
        return "$" if match.group(0) == "$$" else match.group(0)
    return environ.get(match.group(1)) or match.group(2) or ""


def unsupported_ref(value: Any, path: KeyPath = ()) -> tuple[KeyPath, str] | None:
    """``(key path, text)`` of the first ``$NAME``, ``${NAME-default}``, ``${ NAME }`` or other
    shell form citecast does not expand, or None.

    Kept as literal text they read like references and were not: ``file_secret: $SECRET``
    signed every link with the word ``$SECRET``, which anyone can guess.
    """
    if isinstance(value, str):
        for match in _DOLLAR.finditer(value):
            if match.group(1) is None and match.group(0) != "$$":
                return path, match.group(0)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = unsupported_ref(item, (*path, index))
            if found:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            found = unsupported_ref(item, (*path, str(key)))
            if found:
                return found
    return None


def refuse_unsupported_refs(data: Any, origin: str) -> None:
    """A ConfigError naming the key and the form when :func:`unsupported_ref` finds one."""
    found = unsupported_ref(data)
    if found is not None:
        keys, text = found
        # quoted when it reads like a variable: ``$Tr0ub4dor`` may be part of a password
        # written into the file, which an error line must not show
        shown = text if _VARIABLE_LIKE.fullmatch(text) else "a $ before a name"
        raise ConfigError(
            f"{origin}: {'.'.join(str(part) for part in keys)}: {shown} is not read from the "
            "environment; write ${NAME} or ${NAME:-default} (or $$ for a $ of its own)"
        )


def expand_env(value: Any, env: Mapping[str, str] | None = None) -> Any:
    """Replace ``${NAME}`` and ``${NAME:-default}`` in every string of a parsed YAML tree, and
    ``$$`` with ``$``.

    As in the shell (and docker compose), ``${NAME:-default}`` is the default when ``NAME`` is
    unset or empty: ``export PORT=`` must not turn ``${PORT:-8000}`` into a blank port. As in
    docker compose, ``$$`` is a ``$`` of the value itself (``pa$$word``, ``$${NAME}``).
    """
    environ = os.environ if env is None else env
    if isinstance(value, str):
        return _DOLLAR.sub(lambda m: _expanded(m, environ), value)
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
        for match in _refs(value):
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

    A note on an item of a list of values is given at the list's own path (:func:`_list_notes`).
    """
    if isinstance(value, str):
        for note in _notes_of(value, environ):
            yield path, note
    elif isinstance(value, list):
        yield from _list_notes(value, environ, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from env_notes(item, environ, (*path, str(key)))


def _written_strings(value: Any, path: KeyPath = ()) -> Iterator[tuple[KeyPath, str]]:
    """``(key path, text)`` for every string of a parsed YAML tree."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _written_strings(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _written_strings(item, (*path, str(key)))


def hide_env_values(
    message: str, data: Any, loc: KeyPath, environ: Mapping[str, str] | None = None
) -> str:
    """``message``, a refusal of the key at ``loc``, with each value a ``${NAME}`` there gave
    shown as the file writes it (``'${PUBLIC_URL}'``), never as the variable's value.

    A check quotes what it refused (``not 'Tr0ub4dor'``), and that value may be a secret.
    Strings at, under or above ``loc`` count: a section's own check may quote any of its keys.
    What is left of a variable's value in other words (a check that reworded it) is replaced
    by its ``${NAME}`` too, when it stands as a word of its own.
    """
    env = os.environ if environ is None else environ
    swaps: dict[str, str] = {}
    names: set[str] = set()
    for path, written in _written_strings(data):
        short = min(len(path), len(loc))
        if path[:short] != loc[:short]:
            continue
        used = [m.group(1) for m in _refs(written) if env.get(m.group(1))]
        if used:
            swaps[expand_env(written, env)] = written
            names.update(used)
    for expanded in sorted(swaps, key=len, reverse=True):
        # a cut start first: the whole value may stand inside it (a run of backslashes, which
        # repr doubles), and once swapped the rest of the cut would be left
        message = replace_cut_starts(message, expanded, swaps[expanded])
        message = message.replace(repr(expanded), repr(swaps[expanded]))
        message = _replace_word(message, expanded, swaps[expanded])
    for name in sorted(names, key=lambda n: len(env[n]), reverse=True):
        for value in (env[name], env[name].strip()):  # a check may quote it stripped
            message = replace_cut_starts(message, value, f"${{{name}}}")
            message = _replace_word(message, value, f"${{{name}}}")
        for part in {part.strip() for part in env[name].split(",")} - {""}:
            # a check that lists the parts of a value (``write several groups as a YAML
            # list: [a, b]`` for ``a,b``) shows them as the items of a list
            item = rf"(?<=[\[,] ){re.escape(part)}(?=[,\]])|(?<=\[){re.escape(part)}(?=[,\]])"
            message = re.sub(item, f"${{{name}}}", message)  # a name holds no backslash
    return message


def _replace_word(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced where no letter or digit continues it on either side
    (a variable holding ``a`` must not turn ``an origin`` into ``${NAME}n origin``)."""
    if not old:
        return text
    return re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", lambda _: new, text)


def _notes_of(text: str, environ: Mapping[str, str]) -> Iterator[str]:
    for match in _refs(text):
        name, default = match.group(1), match.group(2)
        if environ.get(name):
            yield f"from ${{{name}}}"
        elif default is None:
            yield f"${{{name}}} is {'empty' if name in environ else 'not set'}"


def _list_notes(
    items: list[Any], environ: Mapping[str, str], path: KeyPath
) -> Iterator[tuple[KeyPath, str]]:
    """The notes of a list's items, at the list's path: a list is often refused whole
    (``web.audience: empty group name in ['']``, from ``[${GROUP}]``), and an error there must
    still say which variable blanked it. The path of the list is also above each item's, so an
    item's own error keeps the note. An item of a longer list names its place
    (``web.audience.1: ${GROUP} is not set``): a bare note would read as the reason for another
    item's error. A section in a list (``index.audience_rules``) keeps its notes at its keys."""
    alone = len(items) == 1
    for index, item in enumerate(items):
        if not isinstance(item, str):
            yield from env_notes(item, environ, (*path, index))
            continue
        place = ".".join(str(part) for part in (*path, index))
        for note in _notes_of(item, environ):
            yield path, note if alone else f"{place}: {note}"


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


_SOURCE = "{key} (from)"
"""The key of ``Section._blank_because`` under which :func:`remember_sources` notes the
variable a key's value came from (a key name holds no space, so the two never meet)."""


def remember_sources(settings: BaseModel, data: Any, environ: Mapping[str, str]) -> None:
    """Note, for each key of a section whose text a set ``${NAME}`` gave, ``${NAME}``: a
    connector's start-up check that refuses such a value names the variable instead of
    quoting it (:func:`env_source`)."""
    for path, written in _written_strings(data):
        names = [m.group(1) for m in _refs(written) if environ.get(m.group(1))]
        section = _section_at(settings, path[:-1])
        key = path[-1] if path else None
        if names and isinstance(section, Section) and isinstance(key, str):
            notes = section._blank_because  # a private note, not a field: frozen allows it
            notes[_SOURCE.format(key=key)] = ", ".join(f"${{{name}}}" for name in names)


def _section_at(settings: BaseModel, path: KeyPath) -> Any:
    section: Any = settings
    for part in path:
        if isinstance(part, int) and isinstance(section, list) and part < len(section):
            section = section[part]
        elif isinstance(part, str) and isinstance(section, BaseModel):
            section = getattr(section, part, None)
        else:
            return None
    return section


def env_source(section: BaseModel, key: str) -> str:
    """``${NAME}`` when the value of ``key`` of ``section`` came from that variable, else
    ``""``: a refusal then says so rather than quote the value (it may be a secret)."""
    if not isinstance(section, Section):
        return ""
    return section._blank_because.get(_SOURCE.format(key=key), "")


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
