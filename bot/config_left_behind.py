"""The index or store an older citecast left in the working directory, refused at start.

Older releases took a relative ``index.path`` and ``store.path`` from the working directory;
now they are taken from the config file's folder (:func:`bot.config_file.beside`). A deployment
run as ``citecast --config ../cfg/config.yaml`` from ``app/`` keeps its index and store in
``app/.citecast``: looked for in ``cfg/.citecast`` after the upgrade, ``ingest --if-missing``
would build a new index and ``serve`` a new store and file-link secret, and every conversation,
vote, share link and duplicate-answer record would be gone without a word. So a command that
opens the index or the store stops instead, naming both places.

A working directory that holds its own ``config.yaml`` is passed over: its ``.citecast`` is
that config's (a clone where ``make serve`` ran), not data left behind, and moving it would
give another deployment the sample index, store and file-link secret. The pattern of the
releases before 30 November 2026 is a working folder without a config of its own.
"""

from __future__ import annotations

import os
from pathlib import Path

from bot.config import Settings
from bot.errors import ConfigError
from bot.path_lookup import path_state

DEFAULT_CONFIG = Path("config.yaml")
"""The config file of the working directory, read when no other is named: the one its
``.citecast`` belongs to when it is there."""


def refuse_left_behind(settings: Settings, folder: Path, origin: str) -> None:
    """Raise ConfigError when ``index.path`` or ``store.path`` of ``settings`` (as written in the
    file ``origin``, relative paths not yet placed) is missing from the config file's
    ``folder`` but found under the working directory, where an older citecast put it.

    An absolute path (``~`` included) and ``:memory:`` are the same for every release, and a
    path found beside the config file is the one in use: neither is looked at further. Nor is
    anything when the working directory holds a config file of its own (see above).
    """
    if path_state(DEFAULT_CONFIG, error=ConfigError).exists:
        return
    found: list[tuple[str, str, str, str]] = []  # key, as written, expected place, found place
    moves: dict[str, str] = {}  # what to move -> where, each once
    for key, written in (("index.path", settings.index.path), ("store.path", settings.store.path)):
        relative = Path(written).expanduser()
        if written == ":memory:" or relative.is_absolute():
            continue
        placed, here = _shown(folder / relative), _shown(Path.cwd() / relative)
        if os.path.exists(placed) or not os.path.exists(here):
            continue
        found.append((key, written, placed, here))
        # the folder that holds it (.citecast) goes whole: the index, the store and the
        # file-link secret beside it belong together
        top = relative.parts[0]
        whole = len(relative.parts) > 1 and top != ".."
        source = _shown(Path.cwd() / top) if whole else here
        moves.setdefault(source, _shown(folder / top) if whole else placed)
    if not found:
        return
    key, written, placed, here = found[0]
    # one message for all of it: fixing the index alone would only stop at the store next
    move = " and ".join(f"{source} to {target}" for source, target in moves.items())
    settings_hint = " and ".join(f"{name} to {place}" for name, _, _, place in found)
    raise ConfigError(
        f"{origin}: {key}: {written} is taken from the config file's folder, where {placed}"
        f" does not exist, but {here} does (a citecast before 30 November 2026 took it from"
        f" the working directory); move {move}, or set {settings_hint}"
    )


def _shown(path: Path) -> str:
    # absolute and without "..", symlinks kept: the path as the operator knows it
    return os.path.abspath(path)
