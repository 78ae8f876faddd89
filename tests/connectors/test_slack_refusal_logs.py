"""What the log line of a refusal no retry can change says: the call Slack refused, and, for a
bot token Slack no longer takes, what to do about it (README "Reliability")."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)


def error_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_refused_stream_start_is_logged_as_chat_start_stream(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """slack_sdk starts the stream on the first append: the refused call is chat.startStream."""
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1)), streaming="native") as world:
        world.fake.fail("chat.startStream", error="is_archived", times=None)
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            await world.post_event(mention("archived meanwhile", ts="1600000000.091000"))
        assert world.fake.bot_messages(PUBLIC) == []
    [line] = error_lines(caplog)
    assert "Slack chat.startStream failed: is_archived" in line, line
    assert "appendStream" not in line


@pytest.mark.parametrize("streaming", ["none", "native"])
@pytest.mark.parametrize("code", ["token_revoked", "token_expired", "account_inactive"])
async def test_a_bot_token_slack_no_longer_takes_is_logged_with_what_to_do(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, streaming: str, code: str
) -> None:
    async with slack_world(
        tmp_path, CannedAnswerer(answer_citing(1)), streaming=streaming
    ) as world:
        for method in ("chat.postMessage", "chat.startStream"):
            world.fake.fail(method, error=code, times=None)
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            await world.post_event(mention("still there?", ts="1600000000.092000"))
    [line] = error_lines(caplog)
    assert code in line, line
    assert "reinstall the app" in line and "into SLACK_BOT_TOKEN" in line, line
