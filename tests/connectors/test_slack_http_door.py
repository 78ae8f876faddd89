"""The public Slack URLs against what anyone on the Internet can send them: requests with a
wrong signature or an old timestamp, bodies that are not UTF-8 or are huge. Each is refused
cleanly, nothing of its body reaches the log, and the log says what an admin should check."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.connectors.slack_http import MAX_REQUEST_BYTES
from tests.connectors.slack_harness import (
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

QUESTION = "what are the salary bands for band C?"


def logged(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(record.getMessage() for record in caplog.records)


async def test_a_wrong_signing_secret_is_named_and_no_question_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        with caplog.at_level(logging.DEBUG):
            response = await world.post_event(mention(QUESTION), secret="an-old-secret")
        assert response.status_code == 401
        assert answerer.calls == []
        assert QUESTION not in logged(caplog)  # slack-bolt's own line logs the whole body
        [line] = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert "slack.signing_secret" in line and "/slack/events" in line


async def test_an_old_timestamp_points_at_the_clock_not_the_secret(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        with caplog.at_level(logging.WARNING):
            stale = int(time.time()) - 3600
            response = await world.post_event(mention(QUESTION), timestamp=stale)
        assert response.status_code == 401
        [line] = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert "clock" in line and "signing_secret" not in line


async def test_a_flood_of_forged_requests_logs_a_few_lines_not_one_each(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        with caplog.at_level(logging.WARNING):
            for _ in range(20):
                await world.post_event(mention(QUESTION), secret="forged", wait=False)
        lines = [r.getMessage() for r in caplog.records if "refused a request" in r.getMessage()]
        assert [line.split("HTTP 401, ")[1].split(" ")[0] for line in lines] == [
            "1",
            "2",
            "4",
            "8",
            "16",
        ]


async def test_a_body_that_is_not_utf8_is_refused_not_a_server_error(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        response = await world.http.post(
            "/slack/events",
            content=b'{"type": "event_callback", "x": "\xff\xfe"}',
            headers={"Content-Type": "application/json"},
        )
        assert response.status_code == 400
        assert answerer.calls == [] and world.fake.calls == []


async def test_a_huge_body_is_refused_without_reaching_bolt(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:

        async def chunks() -> AsyncIterator[bytes]:
            # chunked, with no Content-Length to refuse it by
            for _ in range(MAX_REQUEST_BYTES // 1_000_000 + 2):
                yield b"x" * 1_000_000

        response = await world.http.post(
            "/slack/events", content=chunks(), headers={"Content-Type": "application/json"}
        )
        assert response.status_code == 413
        assert answerer.calls == []


async def test_slacks_own_requests_still_pass(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        response = await world.post_event(mention(QUESTION))
        assert response.status_code == 200
        assert [call[0] for call in answerer.calls] == [QUESTION]
