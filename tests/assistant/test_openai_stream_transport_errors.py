"""A streamed reply whose connection breaks mid-stream is a BackendError naming the broken
connection, whatever HTTP library the OpenAI client runs on: the transport's own error raised
while the stream is read (outside the client's mapping) must not escape as a traceback.

The fake OpenAI server cannot break a stream mid-chunk, so a loopback server written here
does: the head of a chunked 200 event stream, one event, then half a chunk, then it closes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.raw_replies import raw_reply_server
from tests.assistant.test_assistant_openai import assistant_for

_EVENT = {
    "id": "chatcmpl-1",
    "object": "chat.completion.chunk",
    "created": 0,
    "model": "m",
    "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Links last"}}],
}


_EVENT_BYTES = f"data: {json.dumps(_EVENT)}\n\n".encode()


@pytest.fixture
async def breaking_url() -> AsyncIterator[str]:
    """The ``base_url`` of a server whose every streamed reply breaks off mid-chunk: one event,
    then a chunk of 1,024 bytes announced and 9 sent."""
    async with raw_reply_server(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
        + f"{len(_EVENT_BYTES):x}\r\n".encode()
        + _EVENT_BYTES
        + b'\r\n400\r\ndata: {"id'
    ) as url:
        yield url


async def test_a_stream_broken_mid_chunk_is_a_backend_error(
    breaking_url: str, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    bot = assistant_for(kb_settings, kb_index, breaking_url)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream=True), 10)
    assert breaking_url in str(caught.value)
    assert "connection" in str(caught.value)
