"""One ``citecast serve`` per store.

Two servers on one store would both answer the same Slack or email delivery, and the first to
stop would mark the other's answers in progress as failed. ``citecast serve`` therefore holds an
exclusive lock on ``<store>.lock`` while it runs (``flock``: released by the kernel when the
process dies, so a crash never leaves a stale lock), and a second server refuses to start with
one clear line. Holding the lock also makes it safe, at start, to mark turns a crashed run left
pending as failed.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from bot.errors import StoreError
from bot.private_files import make_private_folder, open_lock_file
from bot.writable_paths import unwritable


class StoreLock:
    """An exclusive lock on the store at ``store_path`` (nothing to lock for ``:memory:``)."""

    def __init__(self, store_path: str) -> None:
        self.store_path = store_path
        self.path = None if store_path == ":memory:" else Path(f"{store_path}.lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock; raise StoreError naming the holder's pid when another server has it."""
        if self.path is None or self._fd is not None:
            return
        try:
            make_private_folder(self.path.parent)  # the store's folder: see bot.private_files
            fd = open_lock_file(self.path)
        except OSError as exc:
            why = unwritable(Path(self.store_path), "store.path")
            raise StoreError(
                f"{self.path}: cannot create the store's lock file: {exc}{why}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise StoreError(
                f"another citecast serve (pid {holder}) is using the store {self.store_path}; "
                "stop it or give this one its own store.path"
            ) from None
        except OSError as exc:
            # e.g. ENOLCK: a network file system without locks. Refuse rather than run unlocked.
            os.close(fd)
            raise StoreError(
                f"{self.path}: cannot lock the store's lock file ({exc.strerror or exc}); "
                "put store.path on a local disk"
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode("ascii"))
        except OSError as exc:
            os.close(fd)  # closing it also gives the lock back
            raise StoreError(f"{self.path}: cannot write the store's lock file: {exc}") from None
        self._fd = fd

    def release(self) -> None:
        """Let the next server take the store."""
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None

    def __enter__(self) -> StoreLock:
        self.acquire()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()


def _holder(fd: int) -> str:
    """The pid the lock's holder wrote into the lock file, or "unknown"."""
    try:
        return os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
    except OSError:
        return "unknown"
