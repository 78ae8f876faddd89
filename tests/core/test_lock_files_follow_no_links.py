"""A lock file is never a link: citecast truncates a lock file and writes its pid into it, so a
symlink or hard link planted at the lock's name (in a folder shared with a group) must not aim
that at another file of the account running citecast."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.commands.ingest_lock import REBUILD, lock_path, taking_turns
from bot.errors import StoreError
from bot.store_lock import StoreLock

PRECIOUS = "precious\n"


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text(PRECIOUS, encoding="utf-8")
    return victim


@pytest.mark.parametrize("link", ["symlink", "hard link"])
def test_a_rebuild_leaves_the_file_a_planted_lock_link_names_untouched(
    tmp_path: Path, link: str
) -> None:
    victim = _victim(tmp_path)
    index = tmp_path / "shared" / "index.db"
    index.parent.mkdir()
    planted = lock_path(index)
    if link == "symlink":
        planted.symlink_to(victim)
    else:
        os.link(victim, planted)
    with taking_turns(index, building=REBUILD):
        assert victim.read_text(encoding="utf-8") == PRECIOUS
    assert victim.read_text(encoding="utf-8") == PRECIOUS


def test_serve_refuses_a_store_lock_that_is_a_symlink(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    store = tmp_path / "store.db"
    Path(f"{store}.lock").symlink_to(victim)
    with pytest.raises(StoreError, match="cannot create the store's lock file"):
        StoreLock(str(store)).acquire()
    assert victim.read_text(encoding="utf-8") == PRECIOUS


def test_a_plain_lock_file_still_locks_and_names_its_holder(tmp_path: Path) -> None:
    index = tmp_path / "index.db"
    with taking_turns(index, building=REBUILD):
        assert lock_path(index).read_text(encoding="ascii") == f"{os.getpid()} {REBUILD}"
    with StoreLock(str(tmp_path / "store.db")):
        assert (tmp_path / "store.db.lock").read_text(encoding="ascii") == str(os.getpid())
