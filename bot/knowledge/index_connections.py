"""The knowledge index's read-only SQLite connections: one per thread, reopened when a rebuild
replaces the file.

``citecast ingest --rebuild`` swaps a new file (a new inode) in under a running server (the
command builds beside the index and renames; ``ingest(rebuild=True)`` called as a library
deletes the index and builds a new one at its path, which readers meanwhile find missing or
empty: it is for a process of its own). Each
thread notices on its next read and reopens. A thread that stays idle would hold the replaced
file open, its disk space not freed however large it was, until it read again; so the thread
that opens the new file closes every other thread's idle connection to an older one. The
connections are kept in one list for that, so a thread that has ended (anyio ends a worker
idle for ten seconds) has its connection closed by the next thread that opens one.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.errors import KnowledgeIndexError


def _read_only_folder(path: Path) -> str:
    """Why a read-only connection fails: an index written in WAL mode is read through its
    ``-wal`` and ``-shm`` files, which SQLite must create beside it when they are missing (an
    index copied alone into a read-only folder or image). "" when that is not the cause."""
    companions = (Path(f"{path}-wal"), Path(f"{path}-shm"))
    if all(p.exists() for p in companions) or os.access(path.parent, os.W_OK | os.X_OK):
        return ""
    return (
        f"; the folder {path.parent} is not writable for this user, and SQLite must create "
        f"{companions[0].name} and {companions[1].name} there to read the index: make the "
        "folder writable for this user"
    )


def _index_inode(path: Path) -> int:
    try:
        found = os.stat(path)
    except OSError:
        raise KnowledgeIndexError(
            f"the knowledge index at {path} is gone; build one with `citecast ingest`"
        ) from None
    if stat.S_ISDIR(found.st_mode):
        # SQLite's own words for a folder are "disk I/O error", which sends one looking for a
        # failing disk
        raise KnowledgeIndexError(
            f"index.path {path} is a folder, not an index file; set index.path to a file name"
        )
    return found.st_ino


def _open(path: Path) -> sqlite3.Connection:
    try:
        uri = path.resolve().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    except sqlite3.Error as exc:
        raise KnowledgeIndexError(f"cannot open {path}: {exc}") from None
    try:
        # the first read is where a read-only folder fails: not a damaged index
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as exc:
        conn.close()
        raise KnowledgeIndexError(f"cannot read {path}: {exc}{_read_only_folder(path)}") from None
    except sqlite3.DatabaseError:
        pass  # damaged, or no index: the schema check says which, with the rebuild hint
    return conn


@dataclass
class _Opened:
    """One thread's connection; ``conn`` None once closed (by its thread or another)."""

    conn: sqlite3.Connection | None
    inode: int
    thread: threading.Thread
    busy: int = 0  # reads in progress: never closed by another thread meanwhile

    def unused(self, newest: int) -> bool:
        """Whether nothing will read through it again: idle, and on a replaced file or of a
        thread that has ended (worker threads come and go)."""
        return not self.busy and (self.inode != newest or not self.thread.is_alive())


class ThreadConnections:
    """Each thread's read-only connection to the index at ``path``; ``check`` is run on a
    connection to a file not checked before (the first one, at once, and each rebuild's)."""

    def __init__(self, path: Path, check: Callable[[sqlite3.Connection], None]) -> None:
        self._path = path
        self._check = check
        self._local = threading.local()
        self._lock = threading.Lock()
        self._opened: list[_Opened] = []
        self._checked: int | None = None  # the inode whose schema was checked
        self._newest = -1  # the inode last opened
        # opened and checked at once: an index that cannot be read is refused here
        self._release(self._current()[0])

    @contextmanager
    def held(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection to the index as it is now, kept open for the block."""
        opened, conn = self._current()
        try:
            yield conn
        finally:
            self._release(opened)

    def close(self) -> None:
        """Close this thread's connection (unless a read of this thread still uses it)."""
        opened: _Opened | None = getattr(self._local, "opened", None)
        if opened is not None:
            with self._lock:
                if not opened.busy:
                    self._drop(opened)

    def _current(self) -> tuple[_Opened, sqlite3.Connection]:
        """This thread's connection to the file at the index's path now, marked busy."""
        inode = _index_inode(self._path)
        opened: _Opened | None = getattr(self._local, "opened", None)
        with self._lock:
            if opened is not None and opened.conn is not None and opened.inode == inode:
                opened.busy += 1
                return opened, opened.conn
            if opened is not None and not opened.busy:
                self._drop(opened)
        conn = _open(self._path)  # outside the lock: opening may wait on the disk
        with self._lock:
            try:
                if self._checked != inode:
                    self._check(conn)
                    self._checked = inode
            except BaseException:
                conn.close()
                raise
            self._newest = inode
            opened = _Opened(conn, inode, threading.current_thread(), busy=1)
            for other in [o for o in self._opened if o.unused(inode)]:
                self._drop(other)
            self._opened.append(opened)
        self._local.opened = opened
        return opened, conn

    def _release(self, opened: _Opened) -> None:
        with self._lock:
            opened.busy -= 1
            replaced = opened is not getattr(self._local, "opened", None)  # by a nested read
            if (replaced and not opened.busy) or opened.unused(self._newest):
                self._drop(opened)  # a newer file was opened while it was read

    def _drop(self, opened: _Opened) -> None:
        """Close ``opened`` (the lock held)."""
        if opened.conn is not None:
            opened.conn.close()
            opened.conn = None
        if opened in self._opened:
            self._opened.remove(opened)
