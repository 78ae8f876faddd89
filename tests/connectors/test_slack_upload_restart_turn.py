"""An answer posted whole before a crash, whose file the outbox uploads after the restart, is
an answered turn: README "Reliability" counts the question once, as answered."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.usage_report import build_report
from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    mention,
    settle,
    slack_world,
)
from tests.connectors.test_slack_delivery import file_answer
from tests.connectors.test_slack_file_recovery import (
    HANG,
    handbook,
    outbox_emptied,
    shared_files,
    upload_begun,
)


async def test_a_crash_during_the_upload_leaves_the_turn_done_not_failed(tmp_path: Path) -> None:
    pdf = handbook(tmp_path)
    (tmp_path / "before").mkdir()
    answerer = CannedAnswerer(file_answer(pdf))
    async with slack_world(tmp_path / "before", answerer, max_retries=0) as world:
        question = world.fake.add_message(PUBLIC, "<@U0BOT> leave?", ASKER)
        world.fake.fail("files.getUploadURLExternal", hang=HANG)
        await world.post_event(mention("leave?", ts=question), wait=False)
        await asyncio.wait_for(upload_begun(world.fake), timeout=30)
        messages = world.snapshot(tmp_path / "after")

    answerer = CannedAnswerer(file_answer(pdf))
    async with slack_world(tmp_path / "after", answerer) as world:
        world.fake.state.messages.update(messages)
        assert world.store.fail_pending_turns() == 1  # what the next `citecast serve` does first
        await world.connector.start()
        await settle(world.connector)
        await asyncio.wait_for(outbox_emptied(world), timeout=30)
        assert answerer.calls == []  # not answered again: the file alone was left
        assert shared_files(world.fake, question) == ["[1] handbook.pdf"]
        [turn] = world.store.turns(f"slack:T0TEAM:{PUBLIC}:{question}")
        [slack] = build_report(world.store, since=0.0, days=1.0).channels
        assert (turn.status, slack.failed) == ("done", 0)
