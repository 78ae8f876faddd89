"""A store that cannot be written (a full disk, a damaged or read-only file) leaves a Discord
question unanswered with one log line naming the store's reason, not a traceback per message.

The store's own connection is switched to read-only (SQLite's ``query_only``): every write then
fails with SQLite's "attempt to write a readonly database", as a store that cannot be written
fails. The question is left unclaimed, for the next start's catch-up (``catch_up_minutes``).
"""

from __future__ import annotations

import logging

import pytest

from tests.connectors.discord_edit_helpers import GUIDE
from tests.connectors.test_discord_failure_logs import ask, errors
from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]


async def test_a_store_that_cannot_be_written_is_one_line_per_question(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].")
    with h.store._lock:
        h.store._db.execute("PRAGMA query_only = ON")
    qid = await ask(h, caplog)
    with h.store._lock:
        h.store._db.execute("PRAGMA query_only = OFF")
    (record,) = errors(caplog)
    assert record.exc_info is None
    assert record.levelno == logging.ERROR
    assert record.getMessage().startswith(
        f"discord: handling message {qid} stopped: the store failed: "
    )
    assert record.getMessage().endswith("citecast.db: attempt to write a readonly database")
    assert h.fake.messages_in(h.world.general) == []  # nothing claimed, nothing half-posted
