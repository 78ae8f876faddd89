"""With Slack's API unreachable after start, incoming events are still acknowledged at once
(no ``auth.test`` per request, no 500 and traceback) and answered once Slack is back."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    settle,
    slack_world,
)


async def test_events_are_acked_without_asking_slack_who_the_bot_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        await world.connector.start()  # learns who the bot is (auth.test, once)
        checks = len(world.fake.calls_to("auth.test"))
        world.fake.fail("auth.test", drop=True, times=None)  # from now on: unreachable
        responses = [
            await world.post_event(mention(f"question {n}?"), wait=False) for n in range(3)
        ]
        assert [r.status_code for r in responses] == [200, 200, 200]
        await settle(world.connector)
        assert len(world.fake.calls_to("auth.test")) == checks
        assert len(world.fake.bot_messages(PUBLIC)) == 3
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_an_event_before_the_bot_is_known_is_acked_when_auth_test_fails(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        world.fake.fail("auth.test", drop=True, times=None)
        response = await world.post_event(mention("deploy?"))
        assert response.status_code == 200
        assert len(world.fake.bot_messages(PUBLIC)) == 1
