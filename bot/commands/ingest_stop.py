"""Stopping ``citecast ingest`` cleanly: on a signal between files, and the new indexes that runs
which could not stop cleanly left behind.

Not a command itself (``bot.cli.COMMANDS`` lists those): the parts of ``bot.commands.ingest``
that deal with signals and with the index files being built.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any


class StoppedError(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) came: the run stops before its next file or PDF page.

    A KeyboardInterrupt, so that ingestion's "a reader that fails skips its file" never takes
    a stop inside a PDF for a damaged file.
    """


class StopBetweenFiles:
    """While active, the first SIGINT or SIGTERM asks the run to stop before its next file or
    PDF page.

    The index commits whole files, but a file interrupted half-way through being written
    could be committed with only some of its passages (and counted as unchanged ever after),
    so Ctrl-C takes effect at a file boundary, or between two pages of a PDF being read (before
    any of it is written, so it is left out whole): :meth:`check` raises :class:`StoppedError`
    there. SIGTERM (``timeout``, ``kill``, a service manager) is taken the same way: left to
    Python's default, it ended the process at once and left a half-built new index behind.
    A second signal stops at once (Ctrl-C: the usual KeyboardInterrupt; SIGTERM: status 143),
    still removing a new index being built.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.requested = False
        self.signum = int(signal.SIGINT)
        """The signal that asked to stop (the exit status is 128 plus it)."""
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopBetweenFiles:
        # signal handlers can only be set from the main thread (elsewhere Ctrl-C is not ours)
        if threading.current_thread() is threading.main_thread():
            for signum in self.SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, previous in self._previous.items():
            if previous is None:  # set outside Python: the closest is the default
                previous = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
            signal.signal(signum, previous)
        self._previous.clear()

    def _handle(self, signum: int, frame: object) -> None:
        if self.requested:
            if signum == signal.SIGINT:
                raise KeyboardInterrupt
            raise SystemExit(128 + signum)
        self.requested = True
        self.signum = signum

    def check(self) -> None:
        """Raise :class:`StoppedError` when Ctrl-C was pressed (or SIGTERM came)."""
        if self.requested:
            raise StoppedError


def remove_database(path: Path) -> None:
    """Delete an SQLite file and its ``-wal`` / ``-shm`` companions."""
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        with contextlib.suppress(OSError):  # not there, or its folder is not: nothing to remove
            leftover.unlink()


def remove_reader_files(path: Path) -> None:
    """Delete the ``-wal`` and ``-shm`` files that read-only looks at a finished new index
    (what it holds, for the summary) made beside it, before it is moved into place.

    The writer's own went when it closed, but a read-only connection cannot delete them on
    closing, and every ``--rebuild`` left ``index.db.new-PID-shm`` and ``-wal`` behind. A
    ``-wal`` that holds pages (never a reader's) is left: those pages are the index's.
    """
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    with contextlib.suppress(OSError):  # a missing file is as good as a removed one
        if wal.exists() and wal.stat().st_size:
            return
        wal.unlink(missing_ok=True)
        shm.unlink(missing_ok=True)


STALE_BUILD_SECONDS = 3600
"""A new index untouched this long, by a process that is gone, is a leftover (see below)."""


def remove_stale_builds(index_path: Path) -> None:
    """Delete new indexes (``index.db.new-PID`` and companions) left by runs that are gone.

    A run killed outright (SIGKILL, a crash, the machine stopping) cannot remove the index it
    was building; each such run leaves one of its own name, which would otherwise stay forever.
    One whose process still runs is another ingest at work, and is left alone; so is one
    written to in the last hour, since its process may run where this one cannot see it (in
    another container sharing the folder), and a build writes every 200 files.
    """
    pattern = re.compile(re.escape(index_path.name) + r"\.new-(\d+)(?:-wal|-shm)?")
    try:
        names = os.listdir(index_path.parent)
    except OSError:
        return  # no folder yet (nothing left behind), or none this user can list
    builds: dict[int, list[Path]] = {}
    for name in names:
        found = pattern.fullmatch(name)
        if found is not None:
            builds.setdefault(int(found[1]), []).append(index_path.parent / name)
    for pid, files in builds.items():
        with contextlib.suppress(OSError):
            touched = max(path.stat().st_mtime for path in files)
            if running(pid) or time.time() - touched < STALE_BUILD_SECONDS:
                continue
            for path in files:
                path.unlink(missing_ok=True)


def running(pid: int) -> bool:
    """Whether process ``pid`` exists (as far as this process can see)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process, or a name not ours to judge: left alone
    return True
