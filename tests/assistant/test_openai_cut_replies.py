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
from tests.assistant.test_assistant_openai import assistant_for

HALF = b'{"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "mess'


async def _cut_reply(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    await reader.readexactly(length)
    writer.write(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(HALF) * 3}\r\n\r\n".encode()
        + HALF
    )
    await writer.drain()
    writer.close()
    await writer.wait_closed()


@pytest.fixture
async def cutting_url() -> AsyncIterator[str]:
    """The ``base_url`` of a server whose every reply breaks off after its first bytes."""
    server = await asyncio.start_server(_cut_reply, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield f"http://127.0.0.1:{port}/v1"


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
