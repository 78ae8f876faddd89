"""A prompt longer than the model's context with the conversation's history in it fails as
:class:`HistoryOverflowError`, and the web chat tells the viewer to start a new conversation
(asking again in the same one sends the same history) instead of "try again".

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.assistant.assistant import Assistant
from bot.config import Settings
from bot.connectors.web_sse import NEW_CONVERSATION, error_event, public_reason, public_status
from bot.errors import BackendError, HistoryOverflowError
from bot.knowledge import KnowledgeIndex
from bot.models import Exchange
from tests.assistant.openai_turn import PUBLIC
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, chunk, events, failure

TOO_LONG = "This model's maximum context length is 8192 tokens."
HISTORY = [Exchange("How do I install citecast?", "Run pip install citecast [^1].")]


async def failed(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, history: list[Exchange]
) -> BackendError:
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(bot.reply("And on Linux?", PUBLIC, history), 10)
    return caught.value


async def test_an_overflow_with_history_says_start_a_new_conversation(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(failure(400, TOO_LONG, code="context_length_exceeded"))
    error = await failed(fake, kb_settings, kb_index, HISTORY)
    assert isinstance(error, HistoryOverflowError)
    assert "web.history_turns" in str(error)  # the operator's line still names the settings
    assert public_reason(error) == NEW_CONVERSATION
    assert error_event(error) == {"error": NEW_CONVERSATION}
    assert public_status(error) == 502


async def test_an_overflow_event_in_a_stream_with_history_says_it_too(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(events(chunk(""), {"error": {"message": TOO_LONG, "code": "context_length_exceeded"}}))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(HistoryOverflowError):
        await asyncio.wait_for(_drain(bot, HISTORY), 10)


async def test_an_overflow_without_history_still_says_try_again(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(failure(400, TOO_LONG, code="context_length_exceeded"))
    error = await failed(fake, kb_settings, kb_index, [])
    assert not isinstance(error, HistoryOverflowError)
    assert public_reason(error) == "the assistant failed to answer; try again"


async def _drain(bot: Assistant, history: list[Exchange]) -> None:
    async for _ in bot.stream("And on Linux?", PUBLIC, history):
        pass
