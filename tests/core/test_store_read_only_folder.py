"""A store whose folder this user cannot write is named in one line with its fix, as the index's
is (``bot.writable_paths``), rather than the system's bare "Permission denied".

As root the command runs as ``nobody``, with the scratch folder of the index's read-only tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store import Store
from bot.store_lock import StoreLock
from tests.knowledge.test_ingest_read_only_index import _citecast, _ingest_as_owner
from tests.knowledge.test_ingest_read_only_index import scratch as scratch  # the fixture


def test_serve_with_a_read_only_store_folder_names_the_folder_and_the_fix(
    scratch: Path,
) -> None:
    _ingest_as_owner(scratch)
    store = scratch / "store"
    store.mkdir(mode=0o555)
    store.chmod(0o555)
    done = _citecast(scratch, "serve", "--port", "0")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith(f"citecast serve: {store / 'store.db.lock'}: cannot create ")
    assert line.endswith(
        f"; the folder {store} is not writable for this user: make it writable or set store.path"
    )


def test_a_store_path_that_is_a_folder_says_to_name_a_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as refused:
        Store(tmp_path)
    assert str(refused.value).endswith(f"; {tmp_path} is a folder: set store.path to a file name")


def test_a_lock_beside_a_file_standing_for_the_folder_says_so(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the store's folder should be")
    with pytest.raises(StoreError) as refused:
        StoreLock(str(blocked / "citecast.db")).acquire()
    assert str(refused.value).endswith(
        f"; {blocked} is a file, not a folder: set store.path to a file in a folder"
    )
