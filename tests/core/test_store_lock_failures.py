"""A lock file the system cannot lock (NFS without locks) is one StoreError, and no leak."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store_lock import StoreLock


def _open_descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def test_a_lock_the_file_system_refuses_is_one_store_error_and_closes_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    store = str(tmp_path / "citecast.db")
    before = _open_descriptors()
    with monkeypatch.context() as patched:
        # the real ENOLCK needs a file system without locks; this is the only place it is faked
        patched.setattr(fcntl, "flock", no_locks)
        with pytest.raises(StoreError) as refused:
            StoreLock(store).acquire()
    assert str(refused.value) == (
        f"{store}.lock: cannot lock the store's lock file ({os.strerror(errno.ENOLCK)}); "
        "put store.path on a local disk"
    )
    assert _open_descriptors() == before
    with StoreLock(store):  # a working file system locks it as usual afterwards
        assert (tmp_path / "citecast.db.lock").read_text() == str(os.getpid())
