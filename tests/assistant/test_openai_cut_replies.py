"""A reply that is not streamed and breaks off mid-body says the connection broke, not that the
endpoint could not be reached (it answered 200, then closed the connection).

The fake OpenAI server cannot send half a body, so a loopback server written here does: the
head of a 200 with a ``Content-Length`` longer than what follows, then it closes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.raw_replies import raw_reply_server
from tests.assistant.test_assistant_openai import assistant_for

HALF = b'{"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "mess'


@pytest.fixture
async def cutting_url() -> AsyncIterator[str]:
    """The ``base_url`` of a server whose every reply breaks off after its first bytes."""
    async with raw_reply_server(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(HALF) * 3}\r\n\r\n".encode()
        + HALF
    ) as url:
        yield url


async def test_a_reply_cut_mid_body_says_the_connection_broke(
    cutting_url: str, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    bot = assistant_for(kb_settings, kb_index, cutting_url)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream=False), 10)
    # as a stream cut after it began says it
    assert str(caught.value) == (
        f"the connection to the model endpoint at {cutting_url} broke before the answer was "
        "complete"
    )
