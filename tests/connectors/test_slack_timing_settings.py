"""``slack.request_timeout_seconds`` and ``slack.retry_backoff_seconds`` as README states them.

Found in an audit of every config key: a timeout under a second was cut down to 0, which
aiohttp reads as no timeout at all (a Slack that never answered held the answer for good), and
1.9 became 1. The backoff doubled under a 30 s cap README did not name, so a setting of 45
waited 30 s first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import SlackSettings
from bot.connectors.slack_client import build_web_client, sdk_timeout
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)


@pytest.mark.parametrize(("seconds", "whole"), [(0.5, 1), (1.0, 1), (1.9, 2), (30.0, 30)])
def test_the_timeout_is_rounded_up_to_whole_seconds(seconds: float, whole: int) -> None:
    assert sdk_timeout(seconds) == whole
    settings = SlackSettings(bot_token="xoxb-1", request_timeout_seconds=seconds)
    assert build_web_client(settings).timeout == whole


@pytest.mark.parametrize(
    ("backoff", "waits"), [(20.0, [20.0, 30.0]), (45.0, [45.0, 45.0]), (0.5, [0.5, 1.0])]
)
async def test_server_errors_back_off_doubling_to_at_most_30_s_or_the_setting(
    tmp_path: Path, backoff: float, waits: list[float]
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, retry_backoff_seconds=backoff) as world:
        world.fake.fail("chat.postMessage", status=500, times=2)
        await world.post_event(mention("flaky", ts="1600000000.014000"))
        assert [c.status for c in world.fake.calls_to("chat.postMessage")] == [500, 500, 200]
        assert world.sleeps == waits
        assert len(world.fake.bot_messages(PUBLIC)) == 1
