"""The store's connection: opening, transactions, errors and pruning (see ``bot.store``)."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from bot.errors import StoreError
from bot.store_retention import DEFAULT_RETENTION, Retention, prune_batch
from bot.store_rows import SCHEMA, foreign_tables

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
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
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
            raise StoreError(f"{self.path}: cannot open the store: {exc}") from None
        self._lock = threading.Lock()

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
