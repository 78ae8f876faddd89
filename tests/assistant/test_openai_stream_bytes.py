"""Streams as they arrive on the wire from real servers: a UTF-8 sequence split across network
writes, CRLF line ends, keep-alive comments (``: ping``) and no ``[DONE]``. None of it may show
in, or break, the answer. (Guards: these pass today; they keep the SSE path honest.)

Driven by the real ``openai`` client against the loopback fake, byte for byte.
"""

from __future__ import annotations

import json

from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, chunk, events, text


async def test_a_utf8_sequence_split_across_writes_arrives_whole(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    data = f"data: {json.dumps(chunk('Grüße aus 東京.'), ensure_ascii=False)}\n\n".encode()
    cut = data.index("東".encode()) + 1  # inside the three bytes of 東
    fake.add(events(data[:cut], data[cut:], chunk(finish="stop")))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert (await run(bot, "hallo", stream=True)).answer.text == "Grüße aus 東京."


async def test_crlf_line_ends_and_ping_comments_are_read_as_sse(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    def crlf(payload: dict[str, object]) -> str:
        return f"data: {json.dumps(payload)}\r\n\r\n"

    fake.add(
        events(
            ": ping\r\n\r\n",
            crlf(chunk("Hello ")),
            ": ping - 2026-01-01 00:00:00\r\n\r\n",
            crlf(chunk("there.")),
            crlf(chunk(finish="stop")),
            "data: [DONE]\r\n\r\n",
        )
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert (await run(bot, "hi", stream=True)).answer.text == "Hello there."


async def test_an_emoji_sent_as_two_surrogate_halves_in_two_chunks_arrives_whole(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # a proxy slicing the stream as UTF-16 sends 😀 as "\ud83d" then "\ude00"; a half that
    # never finds its partner reads as U+FFFD, never as a string UTF-8 cannot encode
    content = "Smile \ud83d\ude00 and \ude00 at last \ud83d"
    fake.add(text(content, "Smile \ud83d", "\ude00 and \ude00", " at last \ud83d"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    answer = (await run(bot, "hi", stream=True)).answer.text
    assert answer == "Smile \U0001f600 and \ufffd at last \ufffd"
    fake.add(text(content))
    assert (await run(bot, "hi", stream=False)).answer.text == answer
