"""Reading ``config.yaml`` into :class:`bot.config.Settings` (DESIGN §9).

``${NAME}`` and ``${NAME:-default}`` are replaced from the environment, so secrets never live in
the file. A validation error becomes one ConfigError naming the file and the dotted key path;
the ``capabilities`` section is checked here too (unknown channel, field or bad value).
Relative file paths are taken from the config file's folder (see :func:`load_settings`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError as PydanticValidationError

from bot.config import Settings
from bot.errors import ConfigError
from renderers.base import capabilities_for

_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def expand_env(value: Any, env: dict[str, str] | None = None) -> Any:
    """Replace ``${NAME}`` and ``${NAME:-default}`` in every string of a parsed YAML tree."""
    environ = os.environ if env is None else env
    if isinstance(value, str):
        return _ENV_REF.sub(lambda m: environ.get(m.group(1), m.group(2) or ""), value)
    if isinstance(value, list):
        return [expand_env(item, env) for item in value]
    if isinstance(value, dict):
        return {key: expand_env(item, env) for key, item in value.items()}
    return value


def parse_settings(data: Any, origin: str = "config.yaml") -> Settings:
    """Validate an already-parsed mapping; errors name ``origin`` and the dotted key path."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{origin}: the top level must be a mapping of sections")
    try:
        settings = Settings.model_validate(expand_env(data))
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        path = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise ConfigError(f"{origin}: {path}: {first['msg']}") from None
    try:
        # The renderers' own check, run now rather than at each render: a bad value must stop
        # every command at start, not fail each answer of a server that started anyway.
        for channel, overrides in settings.capabilities.items():
            capabilities_for(channel, overrides)
    except ConfigError as exc:
        raise ConfigError(f"{origin}: {exc}") from None
    return settings


def load_settings(path: str | Path | None = None) -> Settings:
    """Load ``config.yaml`` (or ``$CITECAST_CONFIG``); a missing default file means defaults.

    Relative file paths (``index.path``, ``store.path``, record tables' ``csv``/``sqlite``,
    ``web.file_roots``, ``email.outbound.ca_file``, defaults included) are taken from the config
    file's folder, so ``citecast --config /srv/citecast/config.yaml`` works from any directory;
    without a file they stay relative to the working directory.
    """
    explicit = path is not None or "CITECAST_CONFIG" in os.environ
    target = Path(path or os.environ.get("CITECAST_CONFIG", "config.yaml"))
    if not target.exists():
        if explicit:
            raise ConfigError(f"{target}: no such config file")
        return Settings()
    try:
        data = yaml.safe_load(target.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{target}: cannot read: {exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{target}: not valid YAML: {exc}") from None
    return beside(parse_settings(data, str(target)), target.parent)


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
    outbound = settings.email.outbound
    ca_file = place(outbound.ca_file) if outbound.ca_file else None
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
                update={"outbound": outbound.model_copy(update={"ca_file": ca_file})}
            ),
        }
    )
