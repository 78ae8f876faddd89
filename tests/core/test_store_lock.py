"""One ``citecast serve`` per store: the second lock on a store is refused with the holder's pid."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store_lock import StoreLock


def test_a_second_lock_on_the_same_store_is_refused_until_the_first_is_released(
    tmp_path: Path,
) -> None:
    store = str(tmp_path / "state" / "citecast.db")
    first = StoreLock(store)
    first.acquire()
    assert (tmp_path / "state" / "citecast.db.lock").read_text() == str(os.getpid())
    with pytest.raises(StoreError) as refused:
        StoreLock(store).acquire()
    assert f"another citecast serve (pid {os.getpid()}) is using the store {store}" in str(
        refused.value
    )
    first.release()
    with StoreLock(store) as again:
        assert again.path == tmp_path / "state" / "citecast.db.lock"
    # another store is another lock
    with StoreLock(store), StoreLock(str(tmp_path / "other.db")):
        pass


def test_an_in_memory_store_has_nothing_to_lock() -> None:
    with StoreLock(":memory:") as lock, StoreLock(":memory:"):
        assert lock.path is None


def test_a_lock_file_that_cannot_be_created_is_a_store_error(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the store's folder should be")
    with pytest.raises(StoreError, match="cannot create the store's lock file"):
        StoreLock(str(blocked / "citecast.db")).acquire()
