"""A store that another process keeps locked, or whose file is damaged, fails with one
StoreError naming the reason (which connectors catch), never a raw sqlite3 error."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.errors import StoreError
from bot.store import Store

PAGE = 4096


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    """A store whose write lock another connection (another process, say) holds."""
    path = tmp_path / "store.db"
    Store(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    yield path
    other.execute("ROLLBACK")
    other.close()


WRITES: list[Callable[[Store], Any]] = [
    lambda s: s.add_turn("c", "web", "q"),
    lambda s: s.claim_once("slack-event", "Ev1"),
    lambda s: s.enqueue("slack", {"text": "hi"}),
    lambda s: s.add_feedback(None, "web", None, "helpful"),
]


@pytest.mark.parametrize("write", WRITES)
def test_a_write_to_a_locked_store_says_it_is_locked(locked: Path, write: Any) -> None:
    store = Store(locked, busy_timeout=0)
    with pytest.raises(StoreError, match="database is locked"):
        write(store)
    # the failure left no transaction behind: the store works once the lock is gone
    assert store.turns("c") == []


def test_a_store_freed_after_a_locked_write_takes_writes_again(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    store = Store(path, busy_timeout=0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreError):
        store.add_turn("c", "web", "first")
    other.execute("ROLLBACK")
    other.close()
    store.add_turn("c", "web", "second")
    assert [t.question for t in store.turns("c")] == ["second"]


def damaged_store(path: Path) -> None:
    """A store of 300 turns whose middle pages were overwritten (a disk or copy error)."""
    store = Store(path)
    for _ in range(300):
        store.add_turn("c", "web", "q" * 500, {"text": "a" * 500, "citations": []})
    store.close()
    with path.open("r+b") as file:
        file.seek(PAGE * 3)
        file.write(b"\xff" * PAGE * 60)


READS: list[Callable[[Store], Any]] = [
    lambda s: s.turns("c"),
    lambda s: s.outcomes_since(0),
]


@pytest.mark.parametrize("read", READS)
def test_reading_a_damaged_store_is_a_store_error(tmp_path: Path, read: Any) -> None:
    path = tmp_path / "store.db"
    damaged_store(path)
    store = Store(path)
    with pytest.raises(StoreError, match="malformed") as caught:
        read(store)
    assert str(path) in str(caught.value)


def test_report_on_a_damaged_store_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "store.db"
    damaged_store(path)
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  path: {path}\n", encoding="utf-8")
    assert main(["--config", str(config), "report"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("citecast report: ") and "malformed" in err
    assert len(err.strip().splitlines()) == 1


def test_a_store_path_under_a_file_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(StoreError, match="cannot open the store"):
        Store(blocker / "store.db")
