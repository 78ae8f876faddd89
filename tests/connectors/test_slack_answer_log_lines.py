"""Slack's log for one answer: an "answered" INFO line when it is in the thread, as Discord and
email log theirs, and a single warning when Slack makes it wait or refuses it for now (the
outbox's, saying it is queued), not a second one from the stream that tried first."""

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

TS = "1600000000.051000"


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def answered(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage().startswith("slack: answered")]


@pytest.mark.parametrize("streaming", ["native", "edit", "none"])
async def test_an_answer_in_the_thread_is_one_answered_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, streaming: str
) -> None:
    answerer = CannedAnswerer(answer_citing(2), chunk=4)
    async with slack_world(tmp_path, answerer, streaming=streaming) as world:
        with caplog.at_level(logging.INFO):
            await world.post_event(mention("what?", ts=TS))
        assert world.fake.bot_messages(PUBLIC, thread_ts=TS)
    [line] = answered(caplog)
    assert line.levelno == logging.INFO
    assert line.getMessage() == f"slack: answered {TS} in {PUBLIC} (1 message(s))"
    assert warnings(caplog) == []


async def test_a_long_wait_on_the_stream_is_one_warning_and_no_answered_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = CannedAnswerer(answer_citing(2), chunk=4)
    async with slack_world(tmp_path, answerer, streaming="native") as world:
        world.fake.fail("chat.startStream", status=429, retry_after=90, times=None)
        with caplog.at_level(logging.INFO):
            await world.post_event(mention("busy?", ts=TS))
        assert world.store.pending("slack")  # queued
    [warning] = warnings(caplog)
    assert warning.startswith("Slack asked to wait ")
    assert warning.endswith(f"before posting in {PUBLIC}; the answer is queued")
    assert any("asked the stream in" in r.getMessage() for r in caplog.records)  # at INFO
    assert answered(caplog) == []


@pytest.mark.parametrize(
    ("streaming", "refused", "first_try"),
    [
        # the native stream cannot start, and the post instead is refused
        ("native", ("chat.startStream", "chat.postMessage"), "stream could not start"),
        # edit mode's first post (showing the answer as it is written) and the final one
        ("edit", ("chat.postMessage",), "posting it at the end"),
    ],
)
async def test_a_server_error_on_every_post_is_one_warning(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    streaming: str,
    refused: tuple[str, ...],
    first_try: str,
) -> None:
    # the answer is queued: one warning, the outbox's; the first try's line is at INFO
    answerer = CannedAnswerer(answer_citing(2), chunk=4)
    async with slack_world(
        tmp_path, answerer, streaming=streaming, retry_backoff_seconds=0.01
    ) as world:
        for method in refused:
            world.fake.fail(method, status=500, times=None)
        with caplog.at_level(logging.INFO):
            await world.post_event(mention("down?", ts=TS))
        assert world.store.pending("slack")  # queued
    [warning] = warnings(caplog)
    assert warning.startswith(f"Slack refused an answer in {PUBLIC} (")
    assert warning.endswith("; queued")
    assert any(first_try in r.getMessage() for r in caplog.records)
    assert answered(caplog) == []
