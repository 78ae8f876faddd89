"""``citecast report`` reads turns page by page, sharing the strings that repeat."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.store import Store


def _store_with_turns(path: Path) -> Store:
    store = Store(path)
    for n in range(7):
        answer = {"text": "…", "citations": [{"n": 1}] * (n % 3)}
        store.add_turn(f"c{n}", "web" if n % 2 else "slack", f"question {n}", answer)
    with sqlite3.connect(path) as db:  # asked a second apart
        db.execute("UPDATE turns SET created_at = 1000 + id - 1")
    return store


def test_turns_come_page_by_page_in_order_from_since(tmp_path: Path) -> None:
    store = _store_with_turns(tmp_path / "store.db")
    paged = list(store.iter_outcomes_since(1_002.0, page=2))
    assert [(turn_id, question) for turn_id, _, question, _, _ in paged] == [
        (n + 1, f"question {n}") for n in range(2, 7)
    ]
    assert [citations for *_, citations in paged] == [2, 0, 1, 2, 0]
    assert store.outcomes_since(1_002.0) == paged


def test_the_store_is_free_between_pages(tmp_path: Path) -> None:
    store = _store_with_turns(tmp_path / "store.db")
    seen = []
    for turn_id, *_ in store.iter_outcomes_since(0, page=3):
        seen.append(turn_id)
        if turn_id == 2:  # a server answering while a report reads: no deadlock, and it counts
            store.add_turn("late", "web", "asked during the report")
    assert seen == list(range(1, 9))


def test_a_channel_and_a_status_are_one_string_for_every_turn(tmp_path: Path) -> None:
    # 300,000 turns held each its own copy of "web" and "done": a third of the report's memory
    outcomes = _store_with_turns(tmp_path / "store.db").outcomes_since(0)
    webs = [channel for _, channel, *_ in outcomes if channel == "web"]
    assert len(webs) == 3 and all(channel is webs[0] for channel in webs)
    assert all(status is outcomes[0][3] for *_, status, _ in outcomes)
