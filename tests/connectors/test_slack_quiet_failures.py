"""What an operator reads in the log for ordinary events: a deploy that cuts an answer short,
malformed requests to the public URL, a workspace that cannot stream. One line each, saying
the right thing, and no traceback."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.assistant.base import ReplyEvent
from bot.models import Exchange, TextDelta
from tests.connectors.slack_harness import (
    PUBLIC,
    SECRET,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)
from tests.fakes.slack_api import slack_signature_headers


class StuckAnswerer(CannedAnswerer):
    """Starts an answer and never finishes it (until cancelled)."""

    def __init__(self) -> None:
        super().__init__(answer_citing(1))
        self.started = asyncio.Event()

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self.calls.append((question, audience, tuple(history)))
        yield TextDelta("The answer begins")
        self.started.set()
        await asyncio.Event().wait()


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_a_shutdown_that_cuts_an_answer_short_logs_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = StuckAnswerer()
    async with slack_world(
        tmp_path, answerer, streaming="edit", shutdown_grace_seconds=0.0
    ) as world:
        await world.post_event(mention("deploy?"), wait=False)
        await asyncio.wait_for(answerer.started.wait(), timeout=60)
        await world.connector.stop()
        [apology] = world.fake.bot_messages(PUBLIC)
        assert apology["text"] == world.connector.settings.apology
    assert errors(caplog) == []
    [line] = [r.getMessage() for r in caplog.records if "cut short" in r.getMessage()]
    assert "C0PUBLIC" in line


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"not json at all", "application/json"),
        (b"[1, 2, 3]", "application/json"),
        (b'{"type": "event_callback", "event_id": "Ev1", "event": null}', "application/json"),
        (b"payload=%7Bnot", "application/x-www-form-urlencoded"),
        (b"payload=%5B%5D", "application/x-www-form-urlencoded"),
    ],
    ids=["not-json", "array", "null-event", "bad-payload", "array-payload"],
)
async def test_a_signed_malformed_body_gets_400_and_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, body: bytes, content_type: str
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        headers = {"Content-Type": content_type, **slack_signature_headers(SECRET, body)}
        response = await world.http.post("/slack/events", content=body, headers=headers)
        assert response.status_code == 400
    assert errors(caplog) == []
    [line] = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "HTTP 400" in line and "/slack/events" in line


async def test_a_workspace_that_cannot_stream_is_logged_with_the_method_that_said_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(2), chunk=4)
    async with slack_world(tmp_path, answerer, streaming="native", stream_buffer_chars=8) as world:
        world.fake.streaming_error = "feature_not_enabled"
        with caplog.at_level(logging.INFO):
            await world.post_event(mention("fallback please"))
        assert len(world.fake.bot_messages(PUBLIC)) == 1
    said = [r.getMessage() for r in caplog.records if "feature_not_enabled" in r.getMessage()]
    assert said and all("chat.startStream" in line for line in said)
    assert not any("appendStream" in line for line in said)
