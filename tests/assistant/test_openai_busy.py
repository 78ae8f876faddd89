"""A model endpoint that is busy for longer than a turn may wait (HTTP 429 or 503 asking to retry
after more than ``assistant.openai.timeout``): the turn fails with
:class:`bot.errors.BackendBusyError`, whose ``retry_after`` says when asking again can help.

A wait the client waits out, a failure of another status, or one without a readable wait stays
a plain :class:`bot.errors.BackendError` ("try again"). Driven by the real ``openai`` client
against the loopback fake.
"""

from __future__ import annotations

import asyncio
import email.utils
import time

import pytest

from bot.config import Settings
from bot.errors import BackendBusyError, BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import Completion, FakeOpenAI, error_body

RATE_LIMITED = (
    '{"error": {"message": "Rate limit reached for gpt-4o", "code": "rate_limit_exceeded"}}'
)


async def failure(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    response: Completion,
    stream: bool,
    **openai: object,
) -> BackendError:
    """The error the turn failed with, after ``response`` (a hang fails the test instead)."""
    fake.add(response)
    bot = assistant_for(kb_settings, kb_index, fake.base_url, **openai)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "How do I reset my password?", stream), 10)
    return caught.value


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize(
    ("status", "header", "wait"),
    [
        (429, {"retry_after": "300"}, 300.0),
        (503, {"retry_after": "120"}, 120.0),
        (429, {"retry_after_ms": "90500"}, 90.5),
    ],
)
async def test_a_long_wait_asked_for_is_a_busy_backend(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    stream: bool,
    status: int,
    header: dict[str, str],
    wait: float,
) -> None:
    response = error_body(status, RATE_LIMITED, "application/json", **header)
    # retries allowed: the client must still not wait a long Retry-After out
    error = await failure(fake, kb_settings, kb_index, response, stream, max_retries=2)
    assert isinstance(error, BackendBusyError)
    assert error.retry_after == wait
    assert len(fake.requests) == 1
    # the operator's reason is unchanged: the server's words and the wait it asked for
    assert str(error).startswith(f"the model endpoint at {fake.base_url} answered HTTP {status}")
    assert "longer than assistant.openai.timeout (60 s), so it was not retried" in str(error)


async def test_a_wait_given_as_a_date_is_read_in_seconds(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    later = email.utils.formatdate(time.time() + 600, usegmt=True)
    response = error_body(503, "Service Unavailable", retry_after=later)
    error = await failure(fake, kb_settings, kb_index, response, stream=True)
    assert isinstance(error, BackendBusyError)
    assert 500 < error.retry_after <= 600


async def test_the_wait_is_compared_with_the_configured_timeout(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    response = error_body(429, RATE_LIMITED, "application/json", retry_after="20")
    error = await failure(fake, kb_settings, kb_index, response, stream=True, timeout=10)
    assert isinstance(error, BackendBusyError)
    assert error.retry_after == 20.0


@pytest.mark.parametrize(
    "response",
    [
        # a wait within the timeout (here: no retries left to wait for)
        error_body(429, RATE_LIMITED, "application/json", retry_after_ms="1500"),
        # no wait asked for
        error_body(503, "Service Unavailable"),
        # a long wait, but from a status that is not "busy"
        error_body(500, "Internal Server Error", retry_after="300"),
        # a wait that is no number of seconds nor a date
        error_body(429, RATE_LIMITED, "application/json", retry_after="soon"),
    ],
    ids=["short-wait", "no-wait", "server-error", "unreadable-wait"],
)
async def test_other_failures_still_say_try_again(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, response: Completion
) -> None:
    error = await failure(fake, kb_settings, kb_index, response, stream=True)
    assert type(error) is BackendError
