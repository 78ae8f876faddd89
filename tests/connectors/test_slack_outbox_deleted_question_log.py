"""A queued answer dropped because its question was deleted is logged as the connector logs
the same thing when the answer was not queued: a warning (the asker's doing), not an error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

FAR_FUTURE = 10.0**12  # every queued item is due by then


async def test_a_queued_answer_to_a_deleted_question_is_dropped_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        ts = world.fake.add_message(PUBLIC, "<@U0BOT> deploy?", ASKER)
        world.fake.fail("chat.postMessage", status=500, times=4)  # outlasts the retries: queued
        await world.post_event(mention("deploy?", ts=ts))
        assert len(world.store.due("slack", now=FAR_FUTURE)) == 1
        world.fake.delete_message(PUBLIC, ts)
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            await world.connector.outbox.flush()
        assert world.store.due("slack", now=FAR_FUTURE) == []
        dropped = [r for r in caplog.records if "dropped a queued Slack answer" in r.getMessage()]
        assert [r.levelno for r in dropped] == [logging.WARNING]
        assert "deleted before its answer" in dropped[0].getMessage()
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
