"""Lost connections and timeouts on the connector's side calls are handled, never raised."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    DM,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    direct_message,
    slack_world,
)

LOST = [{"drop": True}, {"hang": 1.5}]
LOST_IDS = ["dropped", "timed-out"]


def background_failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("failure", LOST, ids=LOST_IDS)
async def test_a_lost_thinking_status_does_not_cost_the_answer(
    tmp_path: Path, failure: dict[str, object]
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, request_timeout_seconds=1.0) as world:
        world.fake.fail("assistant.threads.setStatus", times=None, **failure)  # type: ignore[arg-type]
        await world.post_event(direct_message("install?", thread_ts="1.000002"))
        [answer] = world.fake.bot_messages(DM, thread_ts="1.000002")
        assert answer["text"] == "Fact 1.[1]"


@pytest.mark.parametrize("failure", LOST, ids=LOST_IDS)
async def test_lost_suggested_prompts_are_logged_not_raised(
    tmp_path: Path, failure: dict[str, object], caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path, answerer, request_timeout_seconds=1.0, suggested_prompts=["How?"]
    ) as world:
        world.fake.fail("assistant.threads.setSuggestedPrompts", times=None, **failure)  # type: ignore[arg-type]
        started = {
            "type": "assistant_thread_started",
            "assistant_thread": {"user_id": "U0ASKER", "channel_id": DM, "thread_ts": "1.000003"},
        }
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await world.post_event(started)
        assert any("setSuggestedPrompts failed" in r.getMessage() for r in caplog.records)
        assert background_failures(caplog) == []


async def test_a_lost_thank_you_still_records_the_vote(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        world.fake.fail("chat.postEphemeral", drop=True)
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            await world.click("citecast_feedback_helpful", "7", channel=PUBLIC)
        assert world.store.feedback(7) == ["helpful"]
        assert any("not sent" in r.getMessage() for r in caplog.records)
        assert background_failures(caplog) == []
