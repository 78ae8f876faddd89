"""``citecast ingest`` runs into one index take turns with a first run or a ``--rebuild``.

Not a command itself (``bot.cli.COMMANDS`` lists those): the part of ``bot.commands.ingest``
that keeps a new index from being moved over what another run wrote meanwhile.

A new index (the first run, ``--rebuild``) is built in a file of its own and moved over
``index.path`` when complete. What another ``citecast ingest`` wrote into the old index while
it was being built went with the old file, and the rebuild said nothing (found by QA: a file
narrowed to ``staff`` meanwhile came back public, with its old text). So every run that writes
holds a lock on ``.index.db-ingest.lock`` beside the index for its whole run (``flock``: the
kernel releases it when the process ends, so a crash never leaves it held): updates share it,
and still take turns batch by batch inside SQLite as before, while a run building a new index
holds it alone. A run that must wait says so in one line on stderr, then waits. Readers
(``serve``, ``ask``) never take it, nor does ``--if-missing`` on an index that exists and needs
nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.private_files import make_private_folder, open_lock_file


def lock_path(index_path: Path) -> Path:
    """The lock file of the index at ``index_path``: ``.index.db-ingest.lock`` beside it.

    Hidden, so that an index kept inside an ingested folder never shows its lock among the
    "files of other types ignored" (a hidden file is not walked); never ``index.db.lock``,
    the store's (:class:`bot.store_lock.StoreLock`), since an ``index.path`` naming the store
    by a slip must not take the server's lock.
    """
    return index_path.with_name(f".{index_path.name}-ingest.lock")


REBUILD = "--rebuild"
FIRST_RUN = "first run"


@contextmanager
def taking_turns(index_path: Path, *, building: str | None) -> Iterator[None]:
    """Hold the index's ingest lock while the block runs.

    ``building`` is :data:`REBUILD` or :data:`FIRST_RUN` for a run that builds a new index and
    replaces the old one (it holds the lock alone), None for an update (it shares it with other
    updates). A lock file that cannot be made (a folder this user cannot write) leaves the run
    unlocked, as does a symlink or a hard link planted in its place, which is never followed
    (:func:`bot.private_files.open_lock_file`): the index cannot be written either, and
    opening it for writing says why in the words it always has. A file system without locks
    leaves it unlocked too, as before. It is made with the index's mode (0600 unless it was
    shared on purpose), and one that another account of a group sharing the index made is
    locked read-only (``flock`` needs no more), without the line naming this run that a
    waiting run would show.
    """
    path = lock_path(index_path)
    try:
        make_private_folder(index_path.parent)  # as the index's writer makes it: private
        try:
            fd = open_lock_file(path, _index_mode(index_path))
        except PermissionError:
            fd = open_lock_file(path, read_only=True)
    except OSError:
        yield
        return
    try:
        locked = _lock(fd, index_path, building)
        if locked and building is not None:
            _write_holder(fd, f"{os.getpid()} {building}")
        yield
    finally:
        if building is not None:
            # what a waiting run reads is never a run that has finished
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
        os.close(fd)  # closing the descriptor releases the flock


def _index_mode(index_path: Path) -> int:
    try:
        return stat.S_IMODE(index_path.stat().st_mode) & 0o666
    except OSError:
        return 0o600  # no index yet: private, as the first run makes it


def _lock(fd: int, index_path: Path, building: str | None) -> bool:
    """Take the lock, waiting (after saying so) while another run holds it; False when this
    file system cannot lock."""
    mode = fcntl.LOCK_EX if building is not None else fcntl.LOCK_SH
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        pass
    except OSError:
        return False  # ENOLCK: a network file system without locks
    print(f"citecast ingest: {waiting_line(_holder(fd), index_path)}", file=sys.stderr, flush=True)
    try:
        fcntl.flock(fd, mode)
    except OSError:
        return False
    return True


def waiting_line(holder: tuple[int, str] | None, index_path: Path) -> str:
    """What a run that waits for the lock says: who holds it (``holder``: the pid and what it
    builds, which only a run building a new index writes), and that this run waits."""
    waits = "waiting for it to finish before this run starts"
    if holder is None:
        return f"another citecast ingest is updating {index_path}: {waits}"
    pid, building = holder
    if building == REBUILD:
        return f"{index_path} is being rebuilt by citecast ingest --rebuild (pid {pid}): {waits}"
    return f"{index_path} is being built by another citecast ingest (pid {pid}): {waits}"


def _write_holder(fd: int, text: str) -> None:
    with contextlib.suppress(OSError):  # only a waiting run's line would miss it
        os.ftruncate(fd, 0)
        os.pwrite(fd, text.encode("ascii"), 0)


def _holder(fd: int) -> tuple[int, str] | None:
    """The run building a new index that holds the lock, as it wrote itself into the lock
    file; None when updates hold it (or a build that has just taken it, or one that is gone)."""
    try:
        pid_text, _, building = os.pread(fd, 64, 0).decode("ascii", "replace").partition(" ")
        pid = int(pid_text)
    except (OSError, ValueError):
        return None
    try:
        os.kill(pid, 0)  # a run killed outright left its line: it holds nothing now
    except ProcessLookupError:
        return None
    except OSError:
        pass  # another user's process: it is running
    return pid, building.strip()
