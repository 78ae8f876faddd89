"""A ``/citecast`` question the store cannot record (a full disk, a damaged or read-only store)
gets the apology, and the log one line naming the store's reason, not a traceback per question.

The store's own connection is switched to read-only (SQLite's ``query_only``): every write then
fails with SQLite's "attempt to write a readonly database", as a store that cannot be written.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.models import Source
from tests.connectors.slack_harness import slack_world, slash
from tests.fakes.answerer import ScriptedAnswerer

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


async def test_a_private_question_the_store_cannot_record_is_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer) as world:
        with world.store._lock:
            world.store._db.execute("PRAGMA query_only = ON")
        with caplog.at_level(logging.INFO):
            assert await slash(world, "how do I install it?") == 200
        with world.store._lock:
            world.store._db.execute("PRAGMA query_only = OFF")
        [apology] = world.fake.responses
    assert answerer.calls == []  # nothing answered that could not be kept
    assert apology["response_type"] == "ephemeral"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and not errors[0].exc_info
    assert errors[0].getMessage().endswith("citecast.db: attempt to write a readonly database')")
