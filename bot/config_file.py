"""Reading ``config.yaml`` into :class:`bot.config.Settings` (DESIGN §9).

``${NAME}`` and ``${NAME:-default}`` (the default also when NAME is empty, as in the shell) are
replaced from the environment, so secrets never live in the file. A section left blank takes its
defaults, and a mapping key YAML read as a number (an unquoted id) is text. Every problem
becomes one ConfigError, one line naming the file: YAML syntax errors with their line and
column, a key written twice (YAML would keep the last one and silently drop the first, a whole
section with it), and validation errors with the dotted key path, an unknown key with the
closest known one, and where a refused value came from when the file does not show it:
``(from ${PORT})``, ``(${PORT} is empty)`` or ``(${PORT} is not set)``.
A key that such a variable left blank but valid is noted for the connectors' start-up checks
(``slack.bot_token: empty: ${SLACK_BOT_TOKEN} is not set in the environment``; see
:mod:`bot.config_env`).
The ``capabilities`` section is checked here too (unknown channel, field or bad value). A file
over 1 MB is refused unread, and so is an alias inside its own anchor. Relative file paths are
taken from the config file's folder (see :func:`load_settings`). The YAML itself is read, and its
syntax errors worded, by :mod:`bot.config_yaml`.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import sys
from pathlib import Path
from typing import Any, get_args, get_origin

import yaml
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from bot.config import Settings
from bot.config_choices import close_choice
from bot.config_env import (
    env_notes,
    expand_env,
    hide_env_values,
    refuse_unsupported_refs,
    remember_blanks,
    remember_sources,
)
from bot.config_left_behind import refuse_left_behind
from bot.config_reasons import error_reason
from bot.config_yaml import TooManyValuesError, load_yaml, yaml_problem
from bot.errors import ConfigError
from bot.path_lookup import path_state
from renderers.base import DEFAULT_CAPABILITIES, Capabilities, capabilities_for

MAX_CONFIG_BYTES = 1_000_000
"""A config file larger than this is refused unread: it is the wrong file (``--config
index.db``, ``/dev/zero``), which would otherwise be read whole into memory and parsed."""


def _self_reference(
    value: Any, path: tuple[str, ...] = (), inside: frozenset[int] = frozenset(), done: Any = None
) -> tuple[str, ...] | None:
    """The key path of the first list or mapping that contains itself, or None.

    Only a YAML alias inside its own anchor (``a: &x [*x]``) builds one; every later step
    (``${NAME}`` expansion, validation) would recurse into it until Python gives up.
    """
    if not isinstance(value, list | dict):
        return None
    if id(value) in inside:
        return path
    finished: set[int] = set() if done is None else done
    if id(value) in finished:
        return None  # an alias used twice is shared, not recursive: looked at once is enough
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        found = _self_reference(item, (*path, str(key)), inside | {id(value)}, finished)
        if found is not None:
            return found
    finished.add(id(value))
    return None


def _as_written(data: dict[Any, Any], model: type[BaseModel] = Settings) -> dict[Any, Any]:
    """``data`` with two YAML readings undone, in every section of ``model``.

    A section whose keys are all commented out (``web:`` alone) is YAML null: read as empty, so
    it takes its defaults. A key of a mapping keyed by names or ids that YAML read as a number
    (``456789012345678901: [staff]``, an unquoted Discord id) is the same id as text.
    """
    out = dict(data)
    for key, value in data.items():
        field = model.model_fields.get(key) if isinstance(key, str) else None
        kind = field.annotation if field else None
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            out[key] = _as_written(value, kind) if isinstance(value, dict) else value
            if value is None:
                out[key] = {}
        elif get_origin(kind) is dict and get_args(kind)[0] is str and isinstance(value, dict):
            out[key] = {
                str(k) if isinstance(k, int) and not isinstance(k, bool) else k: v
                for k, v in value.items()
            }
    return out


def parse_settings(data: Any, origin: str = "config.yaml") -> Settings:
    """Validate an already-parsed mapping; errors name ``origin`` and the dotted key path."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{origin}: the top level must be a mapping of sections")
    loop = _self_reference(data)
    if loop is not None:
        where = ".".join(loop) or "(top level)"
        raise ConfigError(f"{origin}: {where}: a YAML alias inside its own anchor (&x ... *x)")
    data = _as_written(data)
    refuse_unsupported_refs(data, origin)  # `$SECRET` kept as text would be a guessable secret
    try:
        settings = Settings.model_validate(expand_env(data))
    except PydanticValidationError as exc:
        errors = exc.errors()
        # a misspelt key explains the "Field required" pydantic lists before it: name it first
        first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        loc = tuple(first["loc"])
        path = ".".join(str(part) for part in loc) or "(top level)"
        # a refused value from ${NAME} may be a secret: shown as the file writes it
        reason = hide_env_values(error_reason(first), data, loc)
        # the file shows ${PORT}, not the value that was refused: say where it came from. A
        # check of a whole mapping (index.url_templates) names its entry in the reason.
        notes = [
            note
            for where, note in env_notes(data, os.environ)
            if where[: len(loc)] == loc[: len(where)]
        ]
        if notes:
            reason += " (" + ", ".join(dict.fromkeys(notes)) + ")"
        raise ConfigError(f"{origin}: {path}: {reason}") from None
    index, store = settings.index.path, settings.store.path
    if store != ":memory:" and os.path.normpath(index) == os.path.normpath(store):
        # `citecast ingest --rebuild` deletes the index file: were it the store too, every
        # turn, vote and unsent reply would go with it.
        raise ConfigError(
            f"{origin}: store.path: the same file as index.path ({store}); "
            "the store and the knowledge index need a file each"
        )
    try:
        # The renderers' own check, run now rather than at each render: a bad value must stop
        # every command at start, not fail each answer of a server that started anyway.
        for channel, overrides in settings.capabilities.items():
            _check_capability_names(channel, overrides)
            capabilities_for(channel, overrides)
    except ConfigError as exc:
        raise ConfigError(f"{origin}: {exc}") from None
    # for a connector's start-up check: "slack.bot_token: empty: ${SLACK_BOT_TOKEN} is not set"
    remember_blanks(settings, data, os.environ)
    remember_sources(settings, data, os.environ)
    return settings


def _check_capability_names(channel: str, overrides: dict[str, Any]) -> None:
    """An unknown capability with the closest known one, as for every other section's keys
    (``capabilities_for`` itself only says "unknown capability")."""
    if channel not in DEFAULT_CAPABILITIES:
        meant = close_choice(channel, list(DEFAULT_CAPABILITIES))
        if meant:
            raise ConfigError(f"capabilities.{channel}: unknown channel (did you mean {meant}?)")
        return  # capabilities_for names the channels there are
    known = [field.name for field in dataclasses.fields(Capabilities)]
    for key in overrides:
        close = [] if key in known else difflib.get_close_matches(str(key), known, n=1)
        if close:
            raise ConfigError(
                f"capabilities.{channel}.{key}: unknown capability (did you mean {close[0]}?)"
            )


def config_path(path: str | Path | None = None) -> tuple[Path, bool]:
    """The config file to read and whether it was named (``--config``, ``$CITECAST_CONFIG``).

    ``--config`` wins over ``$CITECAST_CONFIG``, which wins over ``./config.yaml``. An empty
    ``$CITECAST_CONFIG`` (``export CITECAST_CONFIG=``) counts as unset; an empty ``--config``
    is an error, since it can only be a variable that was meant to hold a path.
    """
    if path is not None:
        if not str(path).strip():
            raise ConfigError("--config: empty path; name a config file")
        return Path(path).expanduser(), True
    named = os.environ.get("CITECAST_CONFIG", "").strip()
    if named:
        # a shell leaves "~" as written in a quoted value or after "--config="
        return Path(named).expanduser(), True
    return Path("config.yaml"), False


def without_config_note(path: str | Path | None = None) -> str:
    """``""`` when a config file is read; else why a default path is in use, for the message of
    a command that finds nothing there (no index, no store).

    ``citecast ask`` run from another folder than the one holding ``config.yaml`` reads the
    defaults: its "no knowledge index at .citecast/index.db" is true of the wrong folder, and
    following its advice would build a second index there.
    """
    target, explicit = config_path(path)
    if explicit or path_state(target, error=ConfigError).exists:
        return ""
    return (
        "no config.yaml in this folder, so that is the default path; "
        "run citecast where its config.yaml is, or name it with --config"
    )


def config_origin(path: str | Path | None = None) -> str:
    """The config file that was read, as its errors name it first (``config.yaml: …``), or ""
    when there is none (defaults): for errors found after loading, such as a record table's."""
    target, _ = config_path(path)
    return str(target) if path_state(target, error=ConfigError).is_file else ""


def load_settings(path: str | Path | None = None, *, opens_data: bool = False) -> Settings:
    """Load ``config.yaml`` (or ``$CITECAST_CONFIG``); a missing default file means defaults.

    Relative file paths (``index.path``, ``store.path``, record tables' ``csv``/``sqlite``,
    ``web.file_roots``, ``email.outbound.ca_file``, ``email.imap.ca_file``, defaults included)
    are taken from the config file's folder, so ``citecast --config /srv/citecast/config.yaml``
    works from any directory; without a file, or with one that is not a regular file
    (``--config /dev/null``, a pipe), they stay relative to the working directory. A command
    that opens the index or the store passes ``opens_data``: one an older citecast left in the
    working directory then stops it (:mod:`bot.config_left_behind`).
    """
    target, explicit = config_path(path)
    found = path_state(target, error=ConfigError)
    if not found.exists:
        if explicit:
            # named by the environment, the path is in no command line the user can see
            named_by = " (named by $CITECAST_CONFIG)" if path is None else ""
            raise ConfigError(f"{target}: no such config file{named_by}")
        return Settings()
    if found.is_dir:
        raise ConfigError(f"{target}: is a folder, not a config file")
    try:
        with target.open("rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(
                f"{target}: larger than {MAX_CONFIG_BYTES // 1_000_000} MB; is it the config file?"
            )
        data = load_yaml(raw.decode("utf-8"))
    except OSError as exc:
        # Python's own text ("[Errno 13] Permission denied: 'config.yaml'") names the file twice
        reason = exc.strerror or str(exc)
        raise ConfigError(f"{target}: cannot read: {reason[:1].lower()}{reason[1:]}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{target}: {_not_utf8(raw, exc)}") from None
    except TooManyValuesError as exc:  # valid YAML, but no config: not "not valid YAML"
        raise ConfigError(f"{target}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{target}: not valid YAML: {yaml_problem(exc)}") from None
    except RecursionError:
        raise ConfigError(f"{target}: not valid YAML: nested too deeply") from None
    except ValueError as exc:  # a date like 2026-13-45, an integer of over 4300 digits
        reason = " ".join(str(exc).split())
        if "integer string conversion" in reason:
            reason = f"a number has more than {sys.get_int_max_str_digits()} digits"
        raise ConfigError(f"{target}: not valid YAML: {reason}") from None
    settings = parse_settings(data, str(target))
    # A config that is no file in a folder (/dev/null, a shell's <(…) pipe) names no folder of
    # its own: its relative paths stay relative to the working directory, never under /dev.
    if not found.is_file:
        return settings
    if opens_data:
        refuse_left_behind(settings, target.parent, str(target))
    return beside(settings, target.parent)


def _not_utf8(raw: bytes, exc: UnicodeDecodeError) -> str:
    """Why ``raw`` is no UTF-8 text, with the line to look at (YAML errors name theirs too).

    A file saved as UTF-16 (Windows PowerShell's ``>`` and ``Out-File`` write it) is named as
    such: at its very first byte, "invalid start byte" would tell its author nothing.
    """
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "saved as UTF-16; save it as UTF-8"
    line = raw[: exc.start].count(b"\n") + 1
    return f"not valid UTF-8 (line {line}): {exc.reason}"


def beside(settings: Settings, folder: Path) -> Settings:
    """``settings`` with every relative file path taken from ``folder`` (``~`` expanded)."""

    def place(value: str) -> str:
        if value == ":memory:":
            return value
        return str(folder / Path(value).expanduser())  # an absolute path stays as it is

    tables = [
        table.model_copy(
            update={
                key: place(value) for key in ("csv", "sqlite") if (value := getattr(table, key))
            }
        )
        for table in settings.index.records
    ]
    outbound, imap = settings.email.outbound, settings.email.imap
    ca_file = place(outbound.ca_file) if outbound.ca_file else None
    imap_ca_file = place(imap.ca_file) if imap.ca_file else None
    return settings.model_copy(
        update={
            "index": settings.index.model_copy(
                update={"path": place(settings.index.path), "records": tables}
            ),
            "store": settings.store.model_copy(update={"path": place(settings.store.path)}),
            "web": settings.web.model_copy(
                update={"file_roots": [place(root) for root in settings.web.file_roots]}
            ),
            "email": settings.email.model_copy(
                update={
                    "outbound": outbound.model_copy(update={"ca_file": ca_file}),
                    "imap": imap.model_copy(update={"ca_file": imap_ca_file}),
                }
            ),
        }
    )
