"""A command's errors in the words of the config file it was given.

A command that stops for the index names the command that fixes it (``rebuild it: `citecast
ingest --rebuild kb```) with the ``--config`` the operator gave: run without it, from a folder
with another config.yaml (a systemd unit's WorkingDirectory, the repository clone), it would
rebuild some other index and leave the refused one as it was. And a setting refused after the
file was read (a connector's start-up check: ``email.address: required when email is
enabled``) starts with the file's name, as every error found while reading it does.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager

from bot.errors import ConfigError, KnowledgeIndexError

# a message that begins with a setting's dotted key: `email.address: …`,
# `discourse.base_url, discourse.webhook_secret: …` (a bare word is checked against the sections)
_SETTING_FIRST = re.compile(r"(?P<section>[a-z_]+)(?:\.[\w-]+)*(?=[:,] )")


@contextmanager
def naming_config(config: str | None) -> Iterator[None]:
    """Re-raise the block's KnowledgeIndexError with ``--config`` in the command it names
    (:func:`with_config`), and its ConfigError about a setting prefixed with the config file
    (:func:`with_origin`); ``config`` is the command's ``--config`` (None when not given)."""
    try:
        yield
    except KnowledgeIndexError as exc:
        raise with_config(exc, config) from None
    except ConfigError as exc:
        raise with_origin(exc, config) from None


def with_config(error: KnowledgeIndexError, config: str | None) -> KnowledgeIndexError:
    """``error`` with ``--config FILE`` in each ``citecast ingest`` command it names (the
    schema refusal's rebuild command), when the run was given one; else ``error`` itself."""
    message = str(error)
    if not config or "`citecast ingest " not in message:
        return error
    return KnowledgeIndexError(
        message.replace("`citecast ingest ", f"`citecast --config {shlex.quote(config)} ingest ")
    )


def with_origin(error: ConfigError, config: str | None) -> ConfigError:
    """``error`` with each line (one per problem) prefixed with the config file read
    (``c2.yaml: email.address: …``) when it starts with a setting's key and not with the file
    already; else ``error`` itself (``--port: …``, a message naming a file, or no config file
    read at all)."""
    from bot.config_file import config_origin

    try:
        origin = config_origin(config)
    except ConfigError:  # an empty --config: refused as such already
        return error
    if not origin:
        return error
    lines = str(error).splitlines()
    named = [_line_with_origin(line, origin) for line in lines]
    return error if named == lines else ConfigError("\n".join(named))


def _line_with_origin(line: str, origin: str) -> str:
    from bot.config import Settings

    found = _SETTING_FIRST.match(line)
    if found is None or found["section"] not in Settings.model_fields:
        return line
    return line if line.startswith(f"{origin}: ") else f"{origin}: {line}"
