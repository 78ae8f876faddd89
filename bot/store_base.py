"""The store's connection: opening, transactions, errors and pruning (see ``bot.store``)."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from bot.errors import StoreError
from bot.private_files import create_private_file, make_private_folder, readable_by_others
from bot.store_identity import StoreIdentity, ensure_identity, read_identity
from bot.store_retention import DEFAULT_RETENTION, Retention, prune_batch
from bot.store_rows import SCHEMA, foreign_tables
from bot.writable_paths import unwritable

if TYPE_CHECKING:
    from typing import Self

log = logging.getLogger(__name__)


class StoreBase:
    """One SQLite connection behind one lock; every sqlite3 error becomes a StoreError.

    ``retention`` is what the store keeps (None: everything, forever); ``clock`` gives the
    time every row is stamped with and pruned by (a test passes its own).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout: float = 5.0,
        retention: Retention | None = DEFAULT_RETENTION,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = str(path)
        self._retention = retention
        self._clock = clock
        self._next_prune = 0.0  # the first write after opening prunes a first batch
        try:
            if self.path != ":memory:":
                # private to this account: the store holds every conversation
                make_private_folder(Path(self.path).parent)
                create_private_file(Path(self.path))
                exposed = readable_by_others(Path(self.path))
                if exposed:  # made by an older citecast, or shared on purpose: not changed
                    # absolute, as the index's warning (serve) and its chmod hint name theirs:
                    # a relative path depends on where the command was run
                    log.warning("store %s is %s", Path(self.path).resolve(), exposed)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
            foreign = foreign_tables(self._db)
            if foreign:
                self._db.close()
                raise StoreError(
                    f"{self.path}: not a citecast store (it holds other tables: "
                    f"{', '.join(foreign[:5])}); set store.path to a file of its own"
                )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            why = "" if self.path == ":memory:" else unwritable(Path(self.path), "store.path")
            raise StoreError(f"{self.path}: cannot open the store: {exc}{why}") from None
        self._lock = threading.Lock()
        self._read_only = False
        self._identity: StoreIdentity | None = None
        # Made now, before this version adds a turn to an older store (which then counts as
        # one of its old turns); a store damaged or locked past busy_timeout still opens as
        # before, and identity() says why when it is asked for.
        with suppress(StoreError):
            self.identity()

    @classmethod
    def open_read_only(cls, path: str | Path, *, busy_timeout: float = 5.0) -> Self:
        """The store at ``path`` opened only to read (``citecast report``): SQLite's
        ``mode=ro``, so nothing is written to the file: no schema script, no WAL switch, no
        pruning. A file of any version reads; a table it lacks (an older store's) reads as
        empty. Works for a user who may only read the file and its folder, except when the
        folder is read-only and a write-ahead log is waiting there with no server running:
        that is one StoreError saying so. Any write through it is a StoreError."""
        store = cls.__new__(cls)
        store.path = str(path)
        store._retention = None
        store._clock = time.time
        store._next_prune = 0.0
        store._read_only = True
        store._identity = None
        try:
            store._db = _connect_read_only(store.path, busy_timeout)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"{store.path}: cannot read the store: {exc}") from None
        store._lock = threading.Lock()
        return store

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                yield self._db
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise StoreError(f"{self.path}: {exc}") from None
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        # A BEGIN that failed (the store locked by another process) left no transaction: a
        # ROLLBACK then would raise "no transaction is active" and hide the real reason.
        if self._db.in_transaction:
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: {exc}") from None

    def identity(self) -> StoreIdentity:
        """The store's identity (``bot.store_identity``): what share links are signed for,
        made in the store the first time it is asked for (when the store is opened). A store
        opened read-only that has none yet (never opened by this version to write) is a
        StoreError."""
        if self._identity is not None:
            return self._identity
        with self._read() as db:
            found = read_identity(db)
        if found is None and self._read_only:
            raise StoreError(f"{self.path}: the store has no id yet; open it to write once")
        if found is None:
            # one short write transaction, once: an older store's upgrade (or a new store)
            with self._tx() as db:
                found = ensure_identity(db, self._clock())
        self._identity = found
        return found

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    # -- retention ---------------------------------------------------------------------------

    def prune(self) -> int:
        """Delete everything the retention policy no longer keeps, now; returns how many rows.
        Batch by batch, each its own short transaction, so other calls run in between."""
        if self._retention is None:
            return 0
        total, more = 0, True
        while more:
            with self._tx() as db:
                deleted, more = prune_batch(db, self._clock(), self._retention)
            total += deleted
        return total

    def _maybe_prune(self) -> None:
        """After a write: one batch of pruning when it is due (at most every
        ``retention.every`` seconds, or at the next write while a batch came back full)."""
        keep = self._retention
        now = self._clock()
        if keep is None or now < self._next_prune:
            return
        # set first: a failing prune is not retried on every write (threads may race here:
        # at worst two batches run, each in its own transaction)
        self._next_prune = now + keep.every
        try:
            with self._tx() as db:
                _, more = prune_batch(db, now, keep)
        except StoreError as exc:
            # the caller's own write succeeded: pruning can wait for the next round
            log.warning("store: pruning old rows failed, tried again later: %s", exc)
            return
        if more:
            self._next_prune = now


def _connect_read_only(path: str, busy_timeout: float) -> sqlite3.Connection:
    """A ``mode=ro`` connection to ``path`` with the tables it lacks as empty TEMP tables."""
    # quote: a space, "?", "#" or "%" in the path would otherwise end or garble the URI
    if path == ":memory:":
        uri = "file::memory:"  # a fresh, empty database: every table reads as empty
    else:
        uri = "file:" + urllib.parse.quote(str(Path(path).absolute()), safe="/")
    db = _connect(uri + "?mode=ro", busy_timeout)
    try:
        names = _table_names(db)
    except sqlite3.OperationalError as exc:
        db.close()
        # A WAL store needs its -shm file; with the server stopped that file is gone, and
        # SQLite cannot create it in a folder this user may not write. With no -wal file
        # either, the database file holds everything: read it as immutable (no shm at all).
        if getattr(exc, "sqlite_errorname", "") not in _NO_SHM:
            raise
        if Path(path + "-wal").exists():
            raise StoreError(
                f"{path}: cannot read the store: its folder is read-only to this user and "
                f"{Path(path).name}-wal holds writes not yet in the file; run citecast report "
                "as the user citecast serve runs as, or while it runs"
            ) from None
        db = _connect(uri + "?mode=ro&immutable=1", busy_timeout)
        names = _table_names(db)
    foreign = foreign_tables(db)
    if foreign:
        db.close()
        raise StoreError(
            f"{path}: not a citecast store (it holds other tables: {', '.join(foreign[:5])})"
        )
    # An older store lacks the newer tables: the same tables as empty TEMP ones (kept in
    # memory, never in the file) answer every read as "nothing there".
    db.execute("PRAGMA temp_store=MEMORY")
    for name, sql in _schema_tables():
        if name not in names:
            db.execute(sql.replace("CREATE TABLE", "CREATE TEMP TABLE", 1))
    return db


_NO_SHM = ("SQLITE_READONLY_DIRECTORY", "SQLITE_CANTOPEN")


def _connect(uri: str, busy_timeout: float) -> sqlite3.Connection:
    db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
    db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
    return db


def _table_names(db: sqlite3.Connection) -> set[str]:
    rows = db.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'").fetchall()
    return {str(row[0]) for row in rows}


def _schema_tables() -> list[tuple[str, str]]:
    """``(name, CREATE TABLE statement)`` of every table of the current schema."""
    with closing(sqlite3.connect(":memory:")) as scratch:
        scratch.executescript(SCHEMA)
        rows = scratch.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
    return [(str(name), str(sql)) for name, sql in rows]
