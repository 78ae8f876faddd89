"""Refusals only the operator can fix that a 401 would not say: an account out of quota
(OpenAI's 429 ``insufficient_quota``) and a key refused with a 400 (Gemini's "API key not
valid"). Each is the "not set up correctly" refusal (the web's 503), asked once, not retried.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.config import Settings
from bot.errors import BackendConfigError, BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, error_body, text

QUOTA = "You exceeded your current quota, please check your plan and billing details."


def said(message: str, **error: str) -> str:
    return json.dumps({"error": {"message": message, **error}})


async def refused(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> BackendError:
    bot = assistant_for(kb_settings, kb_index, fake.base_url, max_retries=2)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream), 10)
    return caught.value


@pytest.mark.parametrize("stream", [True, False])
async def test_an_account_out_of_quota_is_not_set_up_and_not_retried(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    body = said(QUOTA, type="insufficient_quota", code="insufficient_quota")
    fake.add(error_body(429, body, "application/json"), text("never sent"))
    error = await refused(fake, kb_settings, kb_index, stream)
    assert isinstance(error, BackendConfigError)
    assert len(fake.requests) == 1
    assert str(error) == (
        f"the model endpoint at {fake.base_url} answered HTTP 429: {QUOTA} (the account of the "
        "key in assistant.openai.api_key has no quota left: add credit or raise its spending "
        "limit; retrying will not help)"
    )


async def test_a_rate_limit_is_still_retried(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    body = said("Rate limit reached", type="requests", code="rate_limit_exceeded")
    fake.add(error_body(429, body, "application/json", retry_after_ms="10"), text("Hello."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, max_retries=1)
    assert (await run(bot, "hi", stream=True)).answer.text == "Hello."
    assert len(fake.requests) == 2


@pytest.mark.parametrize("stream", [True, False])
async def test_a_key_refused_with_a_400_is_not_set_up(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    reason = "API key not valid. Please pass a valid API key."
    fake.add(error_body(400, said(reason, status="INVALID_ARGUMENT"), "application/json"))
    error = await refused(fake, kb_settings, kb_index, stream)
    assert isinstance(error, BackendConfigError)
    assert str(error) == (
        f"the model endpoint at {fake.base_url} answered HTTP 400: {reason} (the key in "
        "assistant.openai.api_key was refused; retrying will not help)"
    )


async def test_a_400_about_the_request_is_not_a_refused_key(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(error_body(400, said("Invalid value for 'messages[1].content'."), "application/json"))
    error = await refused(fake, kb_settings, kb_index, stream=False)
    assert not isinstance(error, BackendConfigError)
