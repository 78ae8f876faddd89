"""A store that cannot be written (a full disk, a damaged page) fails a web question with a
503 and one line (the JSON error, the stream's ``error`` event), and the log has one line per
question with SQLite's reason: never a bare 500, nor a traceback per question.

The store is broken for real: the ``turns`` table's first page written over on disk (SQLite's
"database disk image is malformed", as a failing disk gives), or its file kept from growing
by SQLite's page limit ("database or disk is full", as on a full disk).
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.connectors.web_turn_failures import STORE_UNAVAILABLE, STORE_UNREADABLE
from bot.store import Store
from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    make_settings,
    parse_sse,
    passage,
)


def _damage_turns_page(path: Path) -> None:
    """Write over the first page of the store's ``turns`` table, the page a new turn goes to."""
    Store(path).close()  # the store's tables, as a server made them
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        query = "SELECT rootpage FROM sqlite_master WHERE name = 'turns'"
        root = conn.execute(query).fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with path.open("r+b") as raw:
        raw.seek((root - 1) * size)
        raw.write(b"\xff" * size)


def _error_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_question_the_store_cannot_record_is_a_503_and_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _damage_turns_page(Path(make_settings(tmp_path).store.path))
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services, client = build_harness(tmp_path, answerer)
    caplog.clear()
    async with client:
        posted = await client.post("/api/ask", json={"question": "How do I install it?"})
        streamed = await client.get("/api/ask/stream", params={"question": "And on Linux?"})
    services.store.close()
    assert (posted.status_code, posted.json()) == (503, {"error": STORE_UNAVAILABLE})
    assert streamed.status_code == 200
    assert parse_sse(streamed.text) == [("error", {"error": STORE_UNAVAILABLE})]
    assert answerer.calls == []  # nothing is answered that could not be kept
    errors = _error_lines(caplog)
    assert [r.exc_info for r in errors] == [None, None]
    for record in errors:
        line = record.getMessage()
        assert line.startswith("web: question not answered: the store cannot be written: ")
        assert line.endswith("store.db: database disk image is malformed")


def _fill_the_disk(store: Store) -> None:
    """Let the store's file grow no more, as on a full disk: SQLite's own page limit, which
    fails a write that needs a new page with "database or disk is full"."""
    with store._lock:
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages}")


def _long_answerer() -> CannedAnswerer:
    # an answer longer than a page: storing it needs pages the full disk has no room for
    text = "Claim 1 is true.[^1] " + "It takes a long explanation. " * 800
    return CannedAnswerer(cited_answer(passage(1), text=text), chunk=4000)


async def test_an_answer_the_store_cannot_keep_is_a_503_and_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    services, client = build_harness(tmp_path, _long_answerer())
    _fill_the_disk(services.store)
    caplog.clear()
    async with client:
        posted = await client.post("/api/ask", json={"question": "Install?"})
    turn = services.store.turn(1)
    services.store.close()
    assert (posted.status_code, posted.json()) == (503, {"error": STORE_UNAVAILABLE})
    assert turn is not None and turn.status == "failed"  # a short write still fits
    errors = _error_lines(caplog)
    assert len(errors) == 1 and errors[0].exc_info is None
    assert errors[0].getMessage().startswith("web: turn 1 failed: the store cannot be written: ")
    assert errors[0].getMessage().endswith("store.db: database or disk is full")


async def test_a_stream_whose_answer_the_store_cannot_keep_ends_with_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    services, client = build_harness(tmp_path, _long_answerer())
    _fill_the_disk(services.store)
    caplog.clear()
    async with client:
        streamed = await client.get("/api/ask/stream", params={"question": "Install?"})
    services.store.close()
    events = parse_sse(streamed.text)
    assert events[0][0] == "start" and events[-1] == ("error", {"error": STORE_UNAVAILABLE})
    errors = _error_lines(caplog)
    assert len(errors) == 1 and errors[0].exc_info is None
    assert errors[0].getMessage().endswith("store.db: database or disk is full")


async def test_a_vote_on_a_damaged_store_is_a_503_not_a_500(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _damage_turns_page(Path(make_settings(tmp_path).store.path))
    services, client = build_harness(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    caplog.clear()
    async with client:
        vote = {"conversation_id": "0123456789abcdef" * 2, "turn_id": 1, "value": "helpful"}
        voted = await client.post("/api/feedback", json=vote)
    services.store.close()
    assert (voted.status_code, voted.json()) == (503, {"error": STORE_UNREADABLE})
    errors = _error_lines(caplog)
    assert len(errors) == 1 and errors[0].exc_info is None
    assert (
        errors[0]
        .getMessage()
        .startswith("the store cannot be read or written: POST /api/feedback failed: ")
    )
