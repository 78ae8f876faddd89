"""Discourse: each retry of a request is an INFO line; only giving up reaches the operator.

A forum down for a while used to be a warning per request per retry (19 for one question).
The retries are INFO lines naming the request, the failure and the wait; the error raised when
the client gives up names the request and the last failure, for the caller's one line.
"""

from __future__ import annotations

import logging
import socket

import pytest

from bot.connectors.discourse_client import DiscourseClient
from bot.connectors.discourse_http import RetryPolicy
from bot.errors import ChannelError
from tests.connectors.discourse_harness import RecordingSleep
from tests.fakes.discourse_api import FakeDiscourse

RETRY = RetryPolicy(max_attempts=4, base_seconds=0.5)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def retry_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "retry in" in r.getMessage()]


async def test_retries_while_the_forum_cannot_be_reached_are_info_lines(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = DiscourseClient(
        f"http://127.0.0.1:{closed_port()}", "key", "citecast", retry=RETRY, sleep=RecordingSleep()
    )
    try:
        with caplog.at_level(logging.INFO), pytest.raises(ChannelError) as gave_up:
            await client.topic(112)
    finally:
        await client.aclose()
    assert str(gave_up.value).startswith("GET /t/112.json: ConnectError")
    retries = retry_lines(caplog)
    assert [r.levelno for r in retries] == [logging.INFO] * 3
    assert retries[0].getMessage().startswith("discourse GET /t/112.json failed (ConnectError")
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_retries_after_server_errors_are_info_lines(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with FakeDiscourse() as forum:
        forum.fail("/t/112.json", 502, times=10)
        client = DiscourseClient(
            forum.url, forum.api_key, "citecast", retry=RETRY, sleep=RecordingSleep()
        )
        try:
            with caplog.at_level(logging.INFO), pytest.raises(ChannelError) as gave_up:
                await client.topic(112)
        finally:
            await client.aclose()
    assert "502" in str(gave_up.value)
    retries = retry_lines(caplog)
    assert [r.getMessage().split(";")[0] for r in retries] == [
        "discourse GET /t/112.json answered 502"
    ] * 3
    assert all(r.levelno == logging.INFO for r in retries)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
