"""The store's identity (bot.store_identity): a random id made with the store and kept in it,
which share links are signed for; a store of an earlier release gets one when first opened, with
the highest turn id it had then (its old share links stay valid up to there); and each turn's
stamp, which a turn given the same id after a restore does not share."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store import Store
from bot.store_rows import SCHEMA


def older_store(path: Path, turns: int) -> None:
    """A store as a release without an id left it: the tables, ``turns`` answered turns."""
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        db.executemany(
            "INSERT INTO turns (conversation_id, channel, question, answer_json, created_at)"
            " VALUES ('c', 'web', 'q', '{\"text\": \"a\"}', 0)",
            [()] * turns,
        )
    db.close()


def test_a_new_store_has_its_own_id_which_it_keeps(tmp_path: Path) -> None:
    first = Store(tmp_path / "one.db")
    other = Store(tmp_path / "two.db")
    made = first.identity()
    assert len(made.store_id) == 32 and made.legacy_share_upto == 0
    assert other.identity().store_id != made.store_id
    first.add_turn("c", "web", "q", {"text": "a"})
    first.close()
    assert Store(tmp_path / "one.db").identity() == made  # reopened, not remade


def test_a_reset_store_at_the_same_path_is_another_store(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    before = Store(path)
    old = before.identity()
    before.close()
    for leftover in tmp_path.glob("store.db*"):
        leftover.unlink()
    assert Store(path).identity().store_id != old.store_id


def test_an_older_store_gets_an_id_with_its_turns_so_far(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    older_store(path, turns=3)
    store = Store(path)
    upgraded = store.identity()
    assert upgraded.legacy_share_upto == 3
    assert store.add_turn("c", "web", "later", {"text": "b"}) == 4
    store.close()
    assert Store(path).identity() == upgraded  # turn 4 came after: it is never a legacy turn


def test_an_empty_older_store_has_no_old_links_to_keep(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    older_store(path, turns=0)
    assert Store(path).identity().legacy_share_upto == 0


def test_read_only_opening_reads_the_id_and_never_makes_one(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    made = Store(path).identity()
    assert Store.open_read_only(path).identity() == made
    older = tmp_path / "older.db"
    older_store(older, turns=1)
    with pytest.raises(StoreError, match="no id yet"):
        Store.open_read_only(older).identity()
    with sqlite3.connect(older) as db:  # nothing was written to it
        assert db.execute("SELECT COUNT(*) FROM state").fetchone() == (0,)
    db.close()


def test_a_store_of_the_release_before_stamps_keeps_its_id_and_its_links_so_far(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.db"
    older_store(path, turns=2)
    made = Store(path).identity()  # the release with store ids opened it: legacy up to 2
    with sqlite3.connect(path) as db:  # ... and kept no unstamped_share_upto
        db.execute("DELETE FROM state WHERE key = 'unstamped_share_upto'")
        db.execute(
            "INSERT INTO turns (conversation_id, channel, question, created_at)"
            " VALUES ('c', 'web', 'q', 0)"
        )
    db.close()
    upgraded = Store(path).identity()
    assert (upgraded.store_id, upgraded.legacy_share_upto) == (made.store_id, 2)
    assert upgraded.unstamped_share_upto == 3  # its unstamped links reach turn 3, no later
    assert made.unstamped_share_upto == 2
    assert Store(tmp_path / "new.db").identity().unstamped_share_upto == 0  # no old links


def test_a_turn_stamp_tells_apart_turns_that_had_one_id(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.db", clock=lambda: 100.0)
    first = store.add_turn("c", "web", "q", {"text": "a"})
    stamp = store.turn_stamp(first)
    assert stamp is not None and store.turn_stamp(first) == stamp  # read again: the same
    assert store.turn_stamp(first + 1) is None and store.turn_stamp(2**64) is None
    other = Store(tmp_path / "other.db", clock=lambda: 100.0)
    assert other.turn_stamp(other.add_turn("d", "web", "q")) != stamp  # same time, other talk
    later = Store(tmp_path / "later.db", clock=lambda: 100.5)
    assert later.turn_stamp(later.add_turn("c", "web", "q")) != stamp  # same talk, later
