"""Looking a path up without a traceback: a folder this user may not search, a name too long
for the file system, or a symlink loop become one of our errors naming the path and why.

Python 3.11's ``Path.exists()``, ``is_dir()`` and ``is_file()`` answer False only for a path
that is not there; behind a folder of mode 0o000 (or a service's 0o750 folder seen by another
account) they raise PermissionError, for a name over 255 bytes OSError (ENAMETOOLONG), and
``resolve()`` raises RuntimeError for a symlink loop. Each escaped as a traceback with status
1, which ``citecast eval`` keeps for a missed gate.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from bot.errors import CitecastError, ValidationError

# what Path.exists() itself reads as "not there" (pathlib's _IGNORED_ERRNOS, less ELOOP,
# which is a loop to name, not a missing file)
_NOT_THERE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF)


@dataclass(frozen=True)
class PathState:
    """What a path is, symlinks followed: ``exists`` False for a path that is not there."""

    exists: bool
    is_file: bool = False
    is_dir: bool = False


def lookup_problem(exc: OSError | RuntimeError) -> str:
    """Why a path could not be looked up, in lower case (``permission denied``)."""
    if isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP:
        return "a symlink loop"
    if exc.errno == errno.ENAMETOOLONG:
        return "a name too long for the file system"
    reason = exc.strerror or str(exc)
    return f"{reason[:1].lower()}{reason[1:]}"


def cannot_look_up(
    shown: str | Path, exc: OSError | RuntimeError, error: type[CitecastError] = ValidationError
) -> CitecastError:
    """The error for ``shown`` that could not be looked up: ``PATH: cannot look it up: why``."""
    return error(f"{shown}: cannot look it up: {lookup_problem(exc)}")


def path_state(
    path: str | Path,
    *,
    shown: str | Path | None = None,
    error: type[CitecastError] = ValidationError,
) -> PathState:
    """What ``path`` is; ``error`` (naming ``shown``, else ``path``) when it cannot be told."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno in _NOT_THERE:
            return PathState(exists=False)
        raise cannot_look_up(path if shown is None else shown, exc, error) from None
    except ValueError:  # a NUL byte in the name: no such file can exist
        return PathState(exists=False)
    return PathState(exists=True, is_file=stat.S_ISREG(mode), is_dir=stat.S_ISDIR(mode))


def resolved(
    path: str | Path,
    *,
    shown: str | Path | None = None,
    error: type[CitecastError] = ValidationError,
) -> Path:
    """``Path(path).resolve()``; ``error`` (naming ``shown``, else ``path``) for a symlink
    loop or a folder on the way that cannot be searched."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError) as exc:
        raise cannot_look_up(path if shown is None else shown, exc, error) from None
